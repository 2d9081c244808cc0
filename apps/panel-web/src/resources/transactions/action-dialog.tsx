import {
  Autocomplete,
  Box,
  Button,
  Chip,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  TextField,
  useMediaQuery,
  type Theme,
} from '@mui/material';
import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { useTranslate } from 'react-admin';

export interface ActionDialogField {
  label: string;
  initial?: string;
  multiline?: boolean;
  /** A translated error text, or null when the value is acceptable. */
  validate?: (value: string) => string | null;
  /** What the summary should show for the typed value (e.g. the new amount). */
  inputMode?: 'text' | 'decimal';
  /** Suggestions the operator picks from or overrides (the assign dialog's operators). */
  options?: string[];
  /** One-click texts that fill the field (the reject dialog's common reasons). */
  presets?: { label: string; options: string[] };
}

/**
 * The confirmation dialog of every queue action: a title, the summary (amount and customer), an
 * optional input, Cancel and the action. A form, so Enter confirms and Escape cancels; MUI keeps
 * the focus inside while it is open. The confirm button stays disabled while the request runs.
 */
export function ActionDialog(props: {
  open: boolean;
  title: string;
  summary: (value: string) => string;
  /** What the operator must check before confirming (the approve dialog's account and reference). */
  details?: ReactNode;
  confirmLabel: string;
  confirmColor?: 'primary' | 'success' | 'error' | 'warning';
  field?: ActionDialogField;
  pending: boolean;
  onConfirm: (value: string) => void;
  onClose: () => void;
}) {
  const translate = useTranslate();
  // On a phone the dialog takes the whole screen: the checks and "Approve" stay within reach.
  const phone = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  const titleId = useId();
  const summaryId = useId();
  const inputId = useId();
  const [value, setValue] = useState(props.field?.initial ?? '');
  const [touched, setTouched] = useState(false);
  const error = props.field?.validate ? props.field.validate(value) : null;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (error || props.pending) return;
    props.onConfirm(value.trim());
  };
  return (
    <Dialog
      open={props.open}
      onClose={props.pending ? undefined : props.onClose}
      aria-labelledby={titleId}
      aria-describedby={summaryId}
      maxWidth="sm"
      fullWidth
      fullScreen={phone}
      slotProps={{
        transition: {
          onExited: () => {
            setValue(props.field?.initial ?? '');
            setTouched(false);
          },
        },
      }}
    >
      <form onSubmit={submit} noValidate>
        <DialogTitle id={titleId}>{props.title}</DialogTitle>
        <DialogContent>
          <DialogContentText
            id={summaryId}
            data-testid="action-summary"
            sx={{ color: 'text.primary', fontSize: '1.15rem', fontWeight: 500, mb: 2 }}
          >
            {props.summary(value.trim())}
          </DialogContentText>
          {props.details}
          {props.field?.presets ? (
            <Box
              role="group"
              aria-label={props.field.presets.label}
              sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, mb: 2 }}
            >
              {props.field.presets.options.map((preset) => (
                <Chip
                  key={preset}
                  label={preset}
                  variant={value === preset ? 'filled' : 'outlined'}
                  color={value === preset ? 'primary' : 'default'}
                  onClick={() => {
                    setValue(preset);
                    setTouched(true);
                  }}
                />
              ))}
            </Box>
          ) : null}
          {props.field?.options ? (
            <Autocomplete
              freeSolo
              options={props.field.options}
              inputValue={value}
              onInputChange={(_event, next) => setValue(next)}
              renderInput={(params) => (
                <TextField
                  {...params}
                  id={inputId}
                  label={props.field?.label}
                  error={touched && Boolean(error)}
                  helperText={touched && error ? error : ' '}
                  onBlur={() => setTouched(true)}
                  autoFocus
                  required
                />
              )}
            />
          ) : props.field ? (
            <TextField
              id={inputId}
              label={props.field.label}
              value={value}
              onChange={(event) => setValue(event.target.value)}
              onBlur={() => setTouched(true)}
              error={touched && Boolean(error)}
              helperText={touched && error ? error : ' '}
              multiline={props.field.multiline ?? false}
              minRows={props.field.multiline ? 2 : undefined}
              slotProps={{ htmlInput: { inputMode: props.field.inputMode ?? 'text', maxLength: 500 } }}
              autoFocus
              fullWidth
              required
            />
          ) : null}
        </DialogContent>
        <DialogActions>
          <Button onClick={props.onClose} disabled={props.pending}>
            {translate('ra.action.cancel')}
          </Button>
          <Button
            type="submit"
            variant="contained"
            color={props.confirmColor ?? 'primary'}
            disabled={props.pending || (touched && Boolean(error))}
            autoFocus={!props.field}
            startIcon={props.pending ? <CircularProgress size={16} /> : undefined}
          >
            {props.confirmLabel}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
