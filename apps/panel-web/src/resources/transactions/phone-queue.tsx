import { Box, Card, CardActionArea, CardContent, Stack, Typography } from '@mui/material';
import { useCreatePath, useListContext, useTranslate } from 'react-admin';
import { useNavigate } from 'react-router-dom';
import { Money, StateChip } from './fields';
import { TimeLeft } from './time-left';
import { TransactionActions } from './transaction-actions';
import type { PanelTransaction } from './types';

/**
 * The queue on a phone: one card per transaction instead of a table row, so that nothing is wider
 * than the screen and the state and the decision buttons sit under the thumb. The card opens the
 * transaction; its buttons keep their clicks to themselves (TransactionActions).
 */
export function PhoneQueue({ type }: { type: PanelTransaction['type'] }) {
  const translate = useTranslate();
  const { data, isPending } = useListContext<PanelTransaction>();
  const createPath = useCreatePath();
  const navigate = useNavigate();
  const resource = type === 'deposit' ? 'deposits' : 'withdrawals';
  if (isPending) return null;
  if (!data || data.length === 0) {
    return (
      <Typography sx={{ p: 2 }} color="text.secondary">
        {translate('ra.navigation.no_results')}
      </Typography>
    );
  }
  return (
    <Stack spacing={1} sx={{ p: 1 }} data-testid={`${type}-queue-cards`}>
      {data.map((record) => (
        <Card key={record.id} variant="outlined" data-testid="queue-card" data-number={record.number}>
          <CardActionArea
            component="div"
            onClick={() => navigate(createPath({ resource, id: record.id, type: 'show' }))}
          >
            <CardContent sx={{ pb: 1 }}>
              <Box sx={{ display: 'flex', justifyContent: 'space-between', gap: 1, alignItems: 'baseline' }}>
                <Typography sx={{ fontWeight: 600 }}>#{record.number}</Typography>
                <Typography sx={{ fontWeight: 600 }}>
                  <Money amount={record.amount} />
                </Typography>
              </Box>
              <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
                {record.customer.fullName}
              </Typography>
              <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, alignItems: 'center', mt: 0.5 }}>
                <StateChip state={record.state} />
                <Typography variant="caption" component="span">
                  <TimeLeft record={record} />
                </Typography>
              </Box>
            </CardContent>
          </CardActionArea>
          <Box sx={{ px: 2, pb: 1.5 }}>
            <TransactionActions record={record} />
          </Box>
        </Card>
      ))}
    </Stack>
  );
}
