import { useState, type ReactElement, type ReactNode } from 'react';
import { Button, Confirm, useNotify, useRefresh } from 'react-admin';
import { useGuardedAction } from './use-guarded-action';

interface ConfirmActionProps {
  /** Translation key of the button. */
  label: string;
  icon?: ReactElement;
  /** Translation key (or text) of the dialog title. */
  title: string;
  /** What the operator confirms (amounts, names): shown in the dialog. */
  content: ReactNode;
  /** Translation key of the dialog's confirm button. */
  confirmLabel?: string;
  action: () => Promise<unknown>;
  /** Translation key of the success notification; none when onDone reports itself. */
  successMessage?: string;
  onDone?: (result: unknown) => void;
  color?: 'primary' | 'error' | 'warning' | 'inherit';
  disabled?: boolean;
}

/**
 * A button that asks first (MUI dialog: focus moves into it, Esc cancels, Enter on the focused
 * button confirms) and runs its action once however often it is clicked.
 */
export function ConfirmAction(props: ConfirmActionProps) {
  const notify = useNotify();
  const refresh = useRefresh();
  const [open, setOpen] = useState(false);
  const [run, pending] = useGuardedAction(async () => {
    try {
      const result = await props.action();
      setOpen(false);
      if (props.successMessage) notify(props.successMessage, { type: 'success' });
      props.onDone?.(result);
      refresh();
    } catch (error) {
      notify((error as Error).message || 'ra.notification.http_error', { type: 'error' });
    }
  });
  // A span, not a fragment: clicks inside the dialog bubble through the React tree (portals too)
  // and must not reach a datagrid row's rowClick.
  return (
    <span onClick={(event) => event.stopPropagation()}>
      <Button
        label={props.label}
        color={props.color ?? 'primary'}
        disabled={props.disabled || pending}
        onClick={() => setOpen(true)}
      >
        {props.icon}
      </Button>
      <Confirm
        isOpen={open}
        loading={pending}
        title={props.title}
        content={props.content}
        confirm={props.confirmLabel ?? 'ra.action.confirm'}
        confirmColor={props.color === 'error' ? 'warning' : 'primary'}
        onConfirm={() => void run()}
        onClose={() => {
          if (!pending) setOpen(false);
        }}
      />
    </span>
  );
}
