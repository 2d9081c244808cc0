import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import {
  Alert,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  IconButton,
  InputAdornment,
  TextField,
} from '@mui/material';
import { useId } from 'react';
import { useNotify, useTranslate } from 'react-admin';

export interface ShownCredentials {
  name?: string;
  apiKey: string;
  apiSecret: string;
}

function CopyableField({ label, value }: { label: string; value: string }) {
  const translate = useTranslate();
  const notify = useNotify();
  return (
    <TextField
      label={translate(label)}
      value={value}
      fullWidth
      margin="dense"
      slotProps={{
        htmlInput: { readOnly: true, spellCheck: false, style: { fontFamily: 'monospace' } },
        input: {
          endAdornment: (
            <InputAdornment position="end">
              <IconButton
                aria-label={`${translate('records.providers.copy')}: ${translate(label)}`}
                onClick={() => {
                  void navigator.clipboard
                    ?.writeText(value)
                    .then(() => notify('records.providers.copied', { type: 'info' }))
                    .catch(() => undefined);
                }}
              >
                <ContentCopyIcon fontSize="small" />
              </IconButton>
            </InputAdornment>
          ),
        },
      }}
    />
  );
}

/**
 * Shows a provider's key and secret once (after create, reveal or rotate). The secret lives only in
 * this component's props: it is not put into react-admin's query cache.
 */
export function SecretDialog({ shown, onClose }: { shown: ShownCredentials | null; onClose: () => void }) {
  const translate = useTranslate();
  const titleId = useId();
  return (
    <Dialog open={shown !== null} onClose={onClose} aria-labelledby={titleId} maxWidth="md" fullWidth>
      <DialogTitle id={titleId}>{translate('records.providers.secret_title', { name: shown?.name ?? '' })}</DialogTitle>
      <DialogContent>
        <Alert severity="warning" sx={{ mb: 2 }}>
          {translate('records.providers.secret_warning')}
        </Alert>
        {shown ? (
          <>
            <CopyableField label="resources.providers.fields.apiKey" value={shown.apiKey} />
            <CopyableField label="resources.providers.fields.apiSecret" value={shown.apiSecret} />
          </>
        ) : null}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} variant="contained" autoFocus>
          {translate('records.providers.secret_stored')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
