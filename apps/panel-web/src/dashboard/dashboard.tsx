import { Alert, Box, Card, CardContent, Grid, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { Title, useTranslate } from 'react-admin';
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { PanelDashboardApprovals } from '@transfergate/contracts/panel';
import { formatLiraAxis, formatTry } from '../format/money';
import { intlLocale } from '../i18n/current-locale';
import { CHART_DAYS, loadDashboardFigures } from './dashboard-figures';

const DASHBOARD_REFRESH_MS = 30_000;

function Figure({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <Box>
      <Typography variant="body2" color="text.secondary">
        {label}
      </Typography>
      <Typography variant="h6" component="p" data-testid={testId}>
        {value}
      </Typography>
    </Box>
  );
}

function TypeCard({
  type,
  today,
  pending,
}: {
  type: 'deposit' | 'withdrawal';
  today: PanelDashboardApprovals;
  pending: number;
}) {
  const translate = useTranslate();
  return (
    <Card>
      <CardContent>
        <Typography variant="h6" component="h2" gutterBottom>
          {translate(type === 'deposit' ? 'tg.dashboard.deposits' : 'tg.dashboard.withdrawals')}
        </Typography>
        <Grid container spacing={2}>
          <Grid size={6}>
            <Figure
              label={translate('tg.dashboard.volume')}
              value={formatTry(today.approvedVolume)}
              testId={`${type}-volume`}
            />
            <Typography variant="caption" color="text.secondary" data-testid={`${type}-approved-count`}>
              {translate('tg.dashboard.approved_count', { count: today.approvedCount })}
            </Typography>
          </Grid>
          <Grid size={6}>
            <Figure label={translate('tg.dashboard.pending')} value={String(pending)} testId={`${type}-pending`} />
          </Grid>
          <Grid size={12}>
            <Figure
              label={translate('tg.dashboard.approval_time')}
              value={
                today.medianApprovalSeconds === null
                  ? translate('tg.dashboard.no_approvals')
                  : translate('tg.dashboard.minutes', {
                      value: (today.medianApprovalSeconds / 60).toLocaleString(intlLocale(), {
                        maximumFractionDigits: 1,
                      }),
                    })
              }
              testId={`${type}-approval-time`}
            />
          </Grid>
        </Grid>
      </CardContent>
    </Card>
  );
}

/** Today's figures per type, the queues' sizes and the approved volume of the last days. */
export function Dashboard() {
  const translate = useTranslate();
  const { data, error } = useQuery({
    queryKey: ['dashboard'],
    queryFn: loadDashboardFigures,
    refetchInterval: DASHBOARD_REFRESH_MS,
  });
  return (
    <Box sx={{ mt: 2 }} data-testid="dashboard">
      <Title title={translate('tg.dashboard.title')} />
      {error ? <Alert severity="error">{error instanceof Error ? error.message : String(error)}</Alert> : null}
      {data ? (
        <>
          <Typography variant="h5" component="h1" gutterBottom>
            {translate('tg.dashboard.today', { day: data.day })}
          </Typography>
          <Grid container spacing={2}>
            <Grid size={{ xs: 12, md: 6 }}>
              <TypeCard
                type="deposit"
                today={data.days[data.days.length - 1]!.deposit}
                pending={data.pending.deposit}
              />
            </Grid>
            <Grid size={{ xs: 12, md: 6 }}>
              <TypeCard
                type="withdrawal"
                today={data.days[data.days.length - 1]!.withdrawal}
                pending={data.pending.withdrawal}
              />
            </Grid>
            <Grid size={12}>
              <Card>
                <CardContent>
                  <Typography variant="h6" component="h2" gutterBottom>
                    {translate('tg.dashboard.chart', { days: CHART_DAYS })}
                  </Typography>
                  <Box
                    sx={{ height: 280 }}
                    role="img"
                    aria-label={translate('tg.dashboard.chart', { days: CHART_DAYS })}
                  >
                    <ResponsiveContainer width="100%" height="100%">
                      <BarChart
                        data={data.days.map((d) => ({
                          day: d.day,
                          deposit: d.deposit.approvedVolume,
                          withdrawal: d.withdrawal.approvedVolume,
                        }))}
                      >
                        <CartesianGrid strokeDasharray="3 3" />
                        <XAxis dataKey="day" />
                        <YAxis tickFormatter={formatLiraAxis} />
                        <Tooltip formatter={(value) => formatTry(Number(value))} />
                        <Legend />
                        <Bar dataKey="deposit" name={translate('tg.dashboard.deposits')} fill="#2e7d32" />
                        <Bar dataKey="withdrawal" name={translate('tg.dashboard.withdrawals')} fill="#1565c0" />
                      </BarChart>
                    </ResponsiveContainer>
                  </Box>
                </CardContent>
              </Card>
            </Grid>
          </Grid>
        </>
      ) : null}
    </Box>
  );
}
