import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import { Box, IconButton, Table, TableBody, TableCell, TableRow, Tooltip, Typography } from '@mui/material';
import { useEffect, useState, type ReactNode } from 'react';
import { useNotify, useTranslate } from 'react-admin';
import { panelFetch } from '../../api/http';
import { formatTry } from '../../format/money';
import { formatDateTime } from '../../format/time';
import type { PanelTransaction } from './types';

/** `TR33 0006 1005 …`: groups of four, as banks print it and as operators compare it. */
export function groupIban(iban: string): string {
  return iban
    .replace(/\s+/g, '')
    .toUpperCase()
    .replace(/(.{4})/g, '$1 ')
    .trim();
}

/** The reference the payment page told the customer to write (gateway-api payment-page/format.ts). */
export const paymentReference = (number: number) => `TG-${number}`;

export function IbanWithCopy({ iban }: { iban: string }) {
  const translate = useTranslate();
  const notify = useNotify();
  const compact = iban.replace(/\s+/g, '').toUpperCase();
  return (
    <Box component="span" sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5 }}>
      {/* One line where there is room; on a phone it wraps between groups of four. */}
      <Box
        component="span"
        data-testid="iban"
        sx={{ fontFamily: 'monospace', whiteSpace: { xs: 'normal', sm: 'nowrap' } }}
      >
        {groupIban(compact)}
      </Box>
      <Tooltip title={translate('tg.check.copy')}>
        <IconButton
          size="small"
          aria-label={translate('tg.check.copy')}
          onClick={(event) => {
            event.stopPropagation();
            void navigator.clipboard
              ?.writeText(compact)
              .then(() => notify('tg.check.copied', { type: 'info' }))
              .catch(() => undefined);
          }}
        >
          <ContentCopyIcon fontSize="inherit" />
        </IconButton>
      </Tooltip>
    </Box>
  );
}

type PaymentReport = NonNullable<PanelTransaction['paymentReport']>;

/**
 * What the customer reported with "I have paid" (the bank sent from, the time of the transfer): the
 * record's when it carries it (an action's answer, the detail), else read from the detail once (the
 * queue's rows do not carry it). Undefined while unknown; `{}` when the customer gave neither.
 */
function useReportedPayment(record: PanelTransaction): PaymentReport | undefined {
  const reported = record.type === 'deposit' && record.state === 'payment_reported';
  const [fetched, setFetched] = useState<PaymentReport | undefined>(undefined);
  useEffect(() => {
    if (!reported || record.paymentReport) return;
    let live = true;
    panelFetch<PanelTransaction>(`/panel/transactions/${record.id}`)
      .then((detail) => live && setFetched(detail.paymentReport ?? {}))
      .catch(() => live && setFetched({}));
    return () => {
      live = false;
    };
  }, [reported, record.id, record.paymentReport]);
  if (!reported) return undefined;
  return record.paymentReport ?? fetched;
}

/**
 * What the operator compares with the bank screen before approving: for a deposit, the account the
 * customer was told to pay into, the reference and what the customer reported (the bank they sent
 * from, the time); for a withdrawal, where the money goes and to whom.
 */
export function ApproveChecks({ record }: { record: PanelTransaction }) {
  const translate = useTranslate();
  const report = useReportedPayment(record);
  const reportRows: Array<[string, ReactNode]> = report
    ? [
        ...(report.senderBank ? [['tg.check.reported_bank', report.senderBank] as [string, ReactNode]] : []),
        ...(report.transferredAt
          ? [['tg.check.reported_time', formatDateTime(report.transferredAt)] as [string, ReactNode]]
          : []),
      ]
    : [];
  const rows: Array<[string, ReactNode]> =
    record.type === 'deposit'
      ? record.bankAccount
        ? [
            ['tg.check.bank', record.bankAccount.bank],
            ['tg.check.iban', <IbanWithCopy key="i" iban={record.bankAccount.iban} />],
            ['tg.check.holder', record.bankAccount.holderName],
            ['tg.check.reference', <strong key="r">{paymentReference(record.number)}</strong>],
            ['tg.check.amount', formatTry(record.amount)],
            ...reportRows,
          ]
        : [
            ['tg.check.reference', <strong key="r">{paymentReference(record.number)}</strong>],
            ['tg.check.amount', formatTry(record.amount)],
            ...reportRows,
          ]
      : [
          ['tg.check.payout_iban', record.iban ? <IbanWithCopy key="i" iban={record.iban} /> : '—'],
          ['tg.check.payout_holder', record.customer.fullName],
          ['tg.check.amount', formatTry(record.amount)],
        ];
  return (
    <Box data-testid="approve-checks" sx={{ mb: 1 }}>
      <Typography variant="subtitle2" component="h3">
        {translate('tg.check.title')}
      </Typography>
      {record.type === 'deposit' && !record.bankAccount ? (
        <Typography variant="body2" color="warning.main">
          {translate('tg.check.unknown_account')}
        </Typography>
      ) : null}
      {report && reportRows.length === 0 ? (
        <Typography variant="body2" color="text.secondary" data-testid="reported-nothing">
          {translate('tg.check.reported_nothing')}
        </Typography>
      ) : null}
      <Table size="small">
        <TableBody>
          {rows.map(([label, value]) => (
            <TableRow key={label}>
              {/* On a phone the label stands above its value: both get the dialog's whole width. */}
              <TableCell
                component="th"
                scope="row"
                sx={{
                  color: 'text.secondary',
                  width: { sm: '40%' },
                  display: { xs: 'block', sm: 'table-cell' },
                  borderBottom: { xs: 'none', sm: undefined },
                  pb: { xs: 0, sm: undefined },
                }}
              >
                {translate(label)}
              </TableCell>
              <TableCell sx={{ display: { xs: 'block', sm: 'table-cell' }, overflowWrap: 'anywhere' }}>
                {value}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Box>
  );
}
