import { Alert, Box, Button, Card, CardContent, Stack, TextField, Typography } from '@mui/material';
import { useState, type FormEvent } from 'react';
import { useLogin, useTranslate } from 'react-admin';
import { useSingleFlight } from '../resources/transactions/use-single-flight';
import { LocaleSwitch } from '../layout/locale-switch';
import { confirmTwoFactorSetup, loginWithPassword, startTwoFactorSetup, verifyTwoFactor } from './operator-session';
import type { TwoFactorSetupResponse } from '@transfergate/contracts/panel';
import { errorText } from '../api/error-text';

/**
 * Sign-in in two steps: username + password, then (for operators with 2FA) the TOTP code. The
 * tokens of a finished sign-in go to react-admin's login (auth-provider.ts).
 */
export function LoginPage() {
  const translate = useTranslate();
  const login = useLogin();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [challengeToken, setChallengeToken] = useState<string | null>(null);
  const [enrolment, setEnrolment] = useState<TwoFactorSetupResponse | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  const submit = useSingleFlight(async () => {
    setError(null);
    try {
      if (enrolment) {
        // 2FA is on: sign in with the password again, which now asks for a code.
        await confirmTwoFactorSetup(enrolment.setupToken, code.trim());
        setEnrolment(null);
        setCode('');
        const step = await loginWithPassword(username.trim(), password);
        if (step.kind === 'challenge') {
          setChallengeToken(step.challengeToken);
          setNotice(translate('tg.login.setup_done'));
        }
        return;
      }
      if (challengeToken) {
        const tokens = await verifyTwoFactor(challengeToken, code.trim());
        await login({ tokens });
        return;
      }
      const step = await loginWithPassword(username.trim(), password);
      if (step.kind === 'challenge') setChallengeToken(step.challengeToken);
      else if (step.kind === 'setup_required') setEnrolment(await startTwoFactorSetup(username.trim(), password));
      else await login({ tokens: step.tokens });
    } catch (failure) {
      setError(translate('tg.login.failed', { message: errorText(translate, failure) }));
    }
  });
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void submit.run();
  };

  return (
    <Box
      component="main"
      sx={{ minHeight: '100vh', display: 'flex', alignItems: 'center', justifyContent: 'center', bgcolor: 'grey.100' }}
    >
      <Card sx={{ width: 380, maxWidth: '100%' }}>
        <CardContent>
          <Typography variant="h5" component="h1" sx={{ mb: 2 }}>
            {translate('tg.login.title')}
          </Typography>
          <form onSubmit={onSubmit} noValidate data-testid="login-form">
            <Stack spacing={2}>
              {enrolment ? (
                <>
                  <Alert severity="info">{translate('tg.login.setup_required')}</Alert>
                  <Box
                    component="img"
                    src={enrolment.qrCodeDataUrl}
                    alt={translate('tg.twofa.qr_alt')}
                    sx={{ width: 180, alignSelf: 'center' }}
                  />
                  <Typography variant="body2">
                    {translate('tg.login.setup_key')}{' '}
                    <Box component="code" data-testid="totp-secret" sx={{ wordBreak: 'break-all' }}>
                      {new URL(enrolment.otpauthUrl).searchParams.get('secret')}
                    </Box>
                  </Typography>
                </>
              ) : null}
              {notice ? <Alert severity="success">{notice}</Alert> : null}
              {challengeToken || enrolment ? (
                <TextField
                  id="totp-code"
                  label={translate('tg.login.code')}
                  helperText={translate('tg.login.code_help')}
                  value={code}
                  onChange={(event) => setCode(event.target.value.replace(/\D/g, '').slice(0, 6))}
                  slotProps={{ htmlInput: { inputMode: 'numeric', autoComplete: 'one-time-code', pattern: '\\d{6}' } }}
                  autoFocus
                  required
                />
              ) : (
                <>
                  <TextField
                    id="username"
                    label={translate('tg.login.username')}
                    value={username}
                    onChange={(event) => setUsername(event.target.value)}
                    autoComplete="username"
                    autoFocus
                    required
                  />
                  <TextField
                    id="password"
                    type="password"
                    label={translate('tg.login.password')}
                    value={password}
                    onChange={(event) => setPassword(event.target.value)}
                    autoComplete="current-password"
                    required
                  />
                </>
              )}
              {error ? (
                <Alert severity="error" role="alert">
                  {error}
                </Alert>
              ) : null}
              <Button type="submit" variant="contained" size="large" disabled={submit.pending}>
                {translate(challengeToken || enrolment ? 'tg.login.verify' : 'tg.login.sign_in')}
              </Button>
              {challengeToken || enrolment ? (
                <Button
                  onClick={() => {
                    setChallengeToken(null);
                    setEnrolment(null);
                    setNotice(null);
                    setCode('');
                    setError(null);
                  }}
                >
                  {translate('tg.login.back')}
                </Button>
              ) : null}
            </Stack>
          </form>
          <Box sx={{ mt: 3, display: 'flex', justifyContent: 'flex-end' }}>
            <LocaleSwitch />
          </Box>
        </CardContent>
      </Card>
    </Box>
  );
}
