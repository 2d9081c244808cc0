import { Alert, Box, Button, Card, CardContent, Stack, TextField, Typography } from '@mui/material';
import { useState, type FormEvent } from 'react';
import { Title, useTranslate } from 'react-admin';
import { useQuery } from '@tanstack/react-query';
import type { TwoFactorSetupResponse } from '@transfergate/contracts/panel';
import { panelFetch } from '../api/http';
import { useSingleFlight } from '../resources/transactions/use-single-flight';
import { currentOperator } from './operator-session';

/** 2FA enrollment for the signed-in operator: QR code (from the API), then a code to confirm. */
export function TwoFactorSetup() {
  const translate = useTranslate();
  const me = useQuery({ queryKey: ['me'], queryFn: currentOperator });
  const [setup, setSetup] = useState<TwoFactorSetupResponse | null>(null);
  const [code, setCode] = useState('');
  const [done, setDone] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const start = useSingleFlight(async () => {
    setError(null);
    try {
      setSetup(await panelFetch<TwoFactorSetupResponse>('/api/auth/2fa/setup/init', { method: 'POST', body: {} }));
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : String(failure));
    }
  });
  const confirm = useSingleFlight(async () => {
    if (!setup) return;
    setError(null);
    try {
      await panelFetch('/api/auth/2fa/setup/confirm', { method: 'POST', body: { setupToken: setup.setupToken, code } });
      setDone(true);
      setSetup(null);
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : String(failure));
    }
  });
  const onConfirm = (event: FormEvent) => {
    event.preventDefault();
    void confirm.run();
  };
  const secret = setup ? new URL(setup.otpauthUrl).searchParams.get('secret') : null;
  const enabled = done || me.data?.twoFactorEnabled === true;

  return (
    <Card sx={{ mt: 2, maxWidth: 560 }} data-testid="two-factor-setup">
      <Title title={translate('tg.twofa.title')} />
      <CardContent>
        <Stack spacing={2}>
          <Typography variant="h5" component="h1">
            {translate('tg.twofa.title')}
          </Typography>
          {done ? <Alert severity="success">{translate('tg.twofa.done')}</Alert> : null}
          {!done && me.data ? (
            <Typography>{translate(enabled ? 'tg.twofa.enabled' : 'tg.twofa.disabled')}</Typography>
          ) : null}
          {!enabled && !setup ? (
            <Box>
              <Button variant="contained" onClick={() => void start.run()} disabled={start.pending}>
                {translate('tg.twofa.start')}
              </Button>
            </Box>
          ) : null}
          {setup ? (
            <form onSubmit={onConfirm} noValidate>
              <Stack spacing={2}>
                <Typography>{translate('tg.twofa.scan')}</Typography>
                <img
                  src={setup.qrCodeDataUrl}
                  alt={translate('tg.twofa.qr_alt')}
                  width={220}
                  height={220}
                  data-testid="two-factor-qr"
                />
                {secret ? (
                  <Typography variant="body2" sx={{ fontFamily: 'monospace' }}>
                    {translate('tg.twofa.secret', { secret })}
                  </Typography>
                ) : null}
                <TextField
                  id="setup-code"
                  label={translate('tg.login.code')}
                  value={code}
                  onChange={(event) => setCode(event.target.value.replace(/\D/g, '').slice(0, 6))}
                  slotProps={{ htmlInput: { inputMode: 'numeric', autoComplete: 'one-time-code' } }}
                  required
                />
                <Box>
                  <Button type="submit" variant="contained" disabled={confirm.pending || code.length !== 6}>
                    {translate('tg.twofa.confirm')}
                  </Button>
                </Box>
              </Stack>
            </form>
          ) : null}
          {error ? (
            <Alert severity="error" role="alert">
              {error}
            </Alert>
          ) : null}
        </Stack>
      </CardContent>
    </Card>
  );
}
