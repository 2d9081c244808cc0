/**
 * One page of a keyset-paginated panel list (transactions, callbacks, webhooks, audit): newest
 * first; pass `nextCursor` as `cursor` for the next (older) page, null on the last page.
 * PanelTransactionList, PanelCallbackPage, WebhookLogPage and AuditPage are this shape.
 */
export interface PanelCursorPage<T> {
  items: T[];
  nextCursor: string | null;
}
