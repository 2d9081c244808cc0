import { Stack } from '@mui/material';
import type { ReactNode } from 'react';
import {
  CreateButton,
  DeleteWithConfirmButton,
  ExportButton,
  SaveButton,
  Toolbar,
  TopToolbar,
  useRecordContext,
  useTranslate,
} from 'react-admin';
import { useCan } from './use-can';

/** List actions: "create" only for operators who may create, plus any extra buttons. */
export function RecordListActions({ manage, children }: { manage: string; children?: ReactNode }) {
  const canManage = useCan(manage);
  return (
    <TopToolbar>
      {children}
      <ExportButton maxResults={5000} />
      {canManage ? <CreateButton /> : null}
    </TopToolbar>
  );
}

/**
 * Form toolbar: save (react-admin disables it while the request runs) and, when the kind can be
 * deleted and the operator may, delete behind a confirmation.
 */
export function RecordFormToolbar({
  deletable = false,
  deleteContent,
  manage,
}: {
  deletable?: boolean;
  /** Translation key of what deleting means for this kind (gets %{name}). */
  deleteContent?: string;
  manage: string;
}) {
  const canManage = useCan(manage);
  const record = useRecordContext<{ id: string; name?: string }>();
  const translate = useTranslate();
  return (
    <Toolbar>
      <Stack direction="row" sx={{ width: '100%', justifyContent: 'space-between' }}>
        <SaveButton disabled={!canManage} />
        {deletable && canManage ? (
          <DeleteWithConfirmButton
            mutationMode="pessimistic"
            {...(deleteContent ? { confirmContent: translate(deleteContent, { name: record?.name ?? '' }) } : {})}
          />
        ) : null}
      </Stack>
    </Toolbar>
  );
}
