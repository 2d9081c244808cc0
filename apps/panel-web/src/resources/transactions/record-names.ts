import { useQuery } from '@tanstack/react-query';
import { usePermissions } from 'react-admin';
import { panelFetch } from '../../api/http';
import { can } from '../../auth/auth-provider';
import { currentOperator } from '../../auth/operator-session';

/** Records change rarely: one fetch per few minutes is plenty. */
const NAMES_STALE_MS = 5 * 60_000;

const DIRECTORIES = {
  operator: { path: '/panel/operators', permission: 'operators.view', label: 'username' },
  merchant: { path: '/panel/merchants', permission: 'merchants.view', label: 'name' },
  provider: { path: '/panel/providers', permission: 'providers.view', label: 'name' },
  bankAccount: { path: '/panel/bank-accounts', permission: 'bank_accounts.view', label: 'bank+iban' },
} as const;

/** A record's display name; `a+b` joins two fields (`Ziraat Bankası · TR33…`). */
function labelOf(item: Record<string, unknown>, label: string): string | undefined {
  const parts = label.split('+').map((field) => item[field]);
  return parts.every((part) => typeof part === 'string') ? parts.join(' · ') : undefined;
}

export type RecordKind = keyof typeof DIRECTORIES;

/**
 * Transactions name operators, merchants and providers by id. Names come from the record list when
 * the operator may see it (and the operator's own name always); an unknown id shows as is.
 */
export function useRecordName(kind: RecordKind): (id: string | undefined) => string | undefined {
  const names = useRecordNames(kind);
  return (id) => (id === undefined ? undefined : (names.data?.get(id) ?? id));
}

/** Choices for a filter (sorted by name), or null when the operator may not list the records. */
export function useRecordChoices(kind: RecordKind): Array<{ id: string; name: string }> | null {
  const names = useRecordNames(kind);
  if (!names.mayList || !names.data) return null;
  return [...names.data].map(([id, name]) => ({ id, name })).sort((a, b) => a.name.localeCompare(b.name, 'tr'));
}

function useRecordNames(kind: RecordKind) {
  const { permissions } = usePermissions();
  const directory = DIRECTORIES[kind];
  const mayList = can(permissions, directory.permission);
  const { data } = useQuery({
    queryKey: ['record-names', kind, mayList],
    staleTime: NAMES_STALE_MS,
    queryFn: async () => {
      const names = new Map<string, string>();
      if (kind === 'operator') {
        const me = await currentOperator();
        names.set(me.id, me.username);
      }
      if (mayList) {
        const list = await panelFetch<{ items: Array<Record<string, unknown>> }>(directory.path);
        for (const item of list.items) {
          const label = labelOf(item, directory.label);
          if (typeof item.id === 'string' && typeof label === 'string') names.set(item.id, label);
        }
      }
      return names;
    },
  });
  return { data, mayList };
}
