import ReceiptLongIcon from '@mui/icons-material/ReceiptLong';
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  MenuItem,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import { useState } from 'react';
import { Title, useTranslate } from 'react-admin';
import type { MerchantStatement } from '@transfergate/contracts/panel';
import { downloadCsv } from '../../api/csv';
import { panelFetch } from '../../api/http';
import { formatTry } from '../../format/money';
import { DateTime } from '../transactions/fields';
import { useRecordChoices } from '../transactions/record-names';

const today = () => new Date().toISOString().slice(0, 10);
const monthStart = () => `${today().slice(0, 8)}01`;
const tomorrow = () => new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);

/**
 * A merchant's statement for [from, to): pick the merchant and the dates, read the opening and
 * closing balances and every ledger entry, or download the same as CSV (the API's own CSV).
 */
export function StatementPage() {
  const translate = useTranslate();
  const merchants = useRecordChoices('merchant') ?? [];
  const [merchantId, setMerchantId] = useState('');
  const [from, setFrom] = useState(monthStart);
  const [to, setTo] = useState(tomorrow);
  const [statement, setStatement] = useState<MerchantStatement | null>(null);
  const [error, setError] = useState<string | null>(null);
  const path = `/panel/merchants/${encodeURIComponent(merchantId)}/statement`;

  const show = async () => {
    setError(null);
    try {
      setStatement(await panelFetch<MerchantStatement>(path, { query: { from, to } }));
    } catch (failure) {
      setStatement(null);
      setError(failure instanceof Error ? failure.message : String(failure));
    }
  };
  const csv = async () => {
    setError(null);
    try {
      const text = await panelFetch<string>(`${path}.csv`, { query: { from, to } });
      downloadCsv(typeof text === 'string' ? text : JSON.stringify(text), `ekstre-${from}`);
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : String(failure));
    }
  };

  return (
    <Card sx={{ mt: 2 }} data-testid="statement-page">
      <Title title={translate('tg.statement.title')} />
      <CardContent>
        <Stack direction="row" spacing={2} sx={{ mb: 2, alignItems: 'center', flexWrap: 'wrap' }}>
          <TextField
            select
            id="statement-merchant"
            label={translate('tg.statement.merchant')}
            value={merchantId}
            onChange={(event) => setMerchantId(event.target.value)}
            sx={{ minWidth: 240 }}
          >
            {merchants.map((merchant) => (
              <MenuItem key={merchant.id} value={merchant.id}>
                {merchant.name}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            id="statement-from"
            type="date"
            label={translate('tg.statement.from')}
            value={from}
            onChange={(event) => setFrom(event.target.value)}
            slotProps={{ inputLabel: { shrink: true } }}
          />
          <TextField
            id="statement-to"
            type="date"
            label={translate('tg.statement.to')}
            value={to}
            onChange={(event) => setTo(event.target.value)}
            slotProps={{ inputLabel: { shrink: true } }}
          />
          <Button variant="contained" disabled={!merchantId} onClick={() => void show()}>
            {translate('tg.statement.show')}
          </Button>
          <Button variant="outlined" disabled={!merchantId} onClick={() => void csv()}>
            {translate('tg.statement.csv')}
          </Button>
        </Stack>
        {error ? <Alert severity="error">{error}</Alert> : null}
        {statement ? (
          <Box>
            <Typography data-testid="statement-opening">
              {translate('tg.statement.opening')}: {formatTry(BigInt(statement.opening.bookedKurus))}
            </Typography>
            {statement.entries.length === 0 ? (
              <Typography color="text.secondary">{translate('tg.statement.empty')}</Typography>
            ) : (
              <Table size="small" data-testid="statement-entries">
                <TableHead>
                  <TableRow>
                    <TableCell>{translate('tg.statement.at')}</TableCell>
                    <TableCell>{translate('tg.statement.transaction')}</TableCell>
                    <TableCell>{translate('tg.statement.kind')}</TableCell>
                    <TableCell align="right">{translate('tg.statement.amount')}</TableCell>
                    <TableCell align="right">{translate('tg.statement.balance')}</TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {statement.entries.map((entry) => {
                    const signed = BigInt(entry.creditKurus) - BigInt(entry.debitKurus);
                    return (
                      <TableRow key={`${entry.ledgerVersion}-${entry.transferId}`}>
                        <TableCell>
                          <DateTime iso={entry.at} />
                        </TableCell>
                        <TableCell>{entry.transactionNumber ? `#${entry.transactionNumber}` : '—'}</TableCell>
                        <TableCell>
                          {translate(`tg.tx.type.${entry.type}`, { _: entry.type })} ·{' '}
                          {translate(`tg.statement_phase.${entry.phase}`, { _: entry.phase })}
                        </TableCell>
                        <TableCell align="right">{formatTry(signed)}</TableCell>
                        <TableCell align="right">{formatTry(BigInt(entry.bookedBalanceKurus))}</TableCell>
                      </TableRow>
                    );
                  })}
                </TableBody>
              </Table>
            )}
            <Typography data-testid="statement-closing" sx={{ mt: 1, fontWeight: 600 }}>
              {translate('tg.statement.closing')}: {formatTry(BigInt(statement.closing.bookedKurus))}
            </Typography>
          </Box>
        ) : null}
      </CardContent>
    </Card>
  );
}

export const statementResource = {
  name: 'statements',
  list: StatementPage,
  icon: ReceiptLongIcon,
  options: { label: 'tg.statement.menu' },
};
