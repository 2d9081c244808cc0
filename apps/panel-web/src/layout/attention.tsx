import NotificationsActiveIcon from '@mui/icons-material/NotificationsActive';
import NotificationsOffIcon from '@mui/icons-material/NotificationsOff';
import ArrowDownwardIcon from '@mui/icons-material/ArrowDownward';
import { Badge, IconButton, Tooltip } from '@mui/material';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { createContext, useContext, useEffect, useRef, useState } from 'react';
import { useNotify, usePermissions, useTranslate } from 'react-admin';
import { useLocation } from 'react-router-dom';
import type { PanelCursorPage, PanelTransaction } from '@transfergate/contracts/panel';
import { panelFetch } from '../api/http';
import { can } from '../auth/auth-provider';

/** As often as the queues poll. */
const WATCH_INTERVAL_MS = 5_000;
const SOUND_KEY = 'tg.attentionSound';
const TITLE_COUNT = /^\(\d+\) /;

/** A red badge with the count over a plain mark, as the tab's icon. */
function badgeIcon(count: number): string {
  const canvas = document.createElement('canvas');
  canvas.width = 32;
  canvas.height = 32;
  const g = canvas.getContext('2d');
  if (!g) return '';
  g.fillStyle = '#1976d2';
  g.fillRect(2, 2, 28, 28);
  g.fillStyle = '#d32f2f';
  g.beginPath();
  g.arc(22, 10, 10, 0, Math.PI * 2);
  g.fill();
  g.fillStyle = '#fff';
  g.font = 'bold 14px sans-serif';
  g.textAlign = 'center';
  g.textBaseline = 'middle';
  g.fillText(count > 9 ? '9+' : String(count), 22, 11);
  return canvas.toDataURL('image/png');
}

function setFavicon(href: string | null): void {
  let link = document.querySelector<HTMLLinkElement>('link[rel="icon"]');
  if (!href) {
    link?.remove();
    return;
  }
  if (!link) {
    link = document.createElement('link');
    link.rel = 'icon';
    document.head.appendChild(link);
  }
  link.type = 'image/png';
  link.href = href;
  link.dataset.count = href ? 'badge' : '';
}

/** A short two-tone chime (Web Audio; silently nothing when the browser has not allowed sound yet). */
function chime(): void {
  try {
    const audio = new AudioContext();
    for (const [index, frequency] of [880, 1320].entries()) {
      const oscillator = audio.createOscillator();
      const gain = audio.createGain();
      oscillator.frequency.value = frequency;
      gain.gain.value = 0.08;
      oscillator.connect(gain).connect(audio.destination);
      oscillator.start(audio.currentTime + index * 0.15);
      oscillator.stop(audio.currentTime + index * 0.15 + 0.12);
    }
    setTimeout(() => void audio.close(), 1_000);
  } catch {
    // No audio device or not allowed: the title and the icon still say it.
  }
}

/**
 * Announces deposits that need a look: a new one, or one whose customer reported the payment since
 * the watcher started. The count shows in the tab title (`(2) …`) and as a badge on the tab icon,
 * optionally with a chime; it clears when the operator looks at the deposit queue.
 */
export function useDepositAttention(): { count: number; sound: boolean; toggleSound: () => void } {
  const { permissions } = usePermissions();
  const location = useLocation();
  const allowed = can(permissions, 'transactions.view');
  const notify = useNotify();
  const queryClient = useQueryClient();
  const known = useRef<Map<string, string> | null>(null);
  const [unseen, setUnseen] = useState<ReadonlySet<string>>(new Set());
  const [sound, setSound] = useState(() => localStorage.getItem(SOUND_KEY) === 'on');
  const soundRef = useRef(sound);
  soundRef.current = sound;

  const { data } = useQuery({
    queryKey: ['deposit-attention'],
    enabled: allowed,
    refetchInterval: WATCH_INTERVAL_MS,
    refetchIntervalInBackground: true,
    queryFn: () =>
      panelFetch<PanelCursorPage<PanelTransaction>>('/panel/transactions', {
        query: { type: 'deposit', state: 'awaiting_payment,payment_reported', limit: 200 },
      }),
  });

  useEffect(() => {
    if (!data) return;
    const previous = known.current;
    const current = new Map(data.items.map((item) => [item.id, item.state]));
    known.current = current;
    if (previous === null) return; // the first answer is the baseline, not news
    const fresh = data.items
      .filter((item) => {
        const before = previous.get(item.id);
        return before === undefined || (item.state === 'payment_reported' && before !== 'payment_reported');
      })
      .map((item) => item.id);
    if (fresh.length === 0) return;
    setUnseen((old) => new Set([...old, ...fresh]));
    if (soundRef.current) chime();
    // On the page too, not only in the tab: a snackbar, and the dashboard's counts at once.
    notify('tg.attention.arrived', { type: 'info', messageArgs: { smart_count: fresh.length } });
    void queryClient.invalidateQueries({ queryKey: ['dashboard'] });
  }, [data, notify, queryClient]);

  // Looking at the deposit queue (in a visible tab) is seeing them.
  const onQueue = /^\/deposits\/?$/.test(location.pathname);
  useEffect(() => {
    if (!onQueue || unseen.size === 0) return;
    const clear = () => {
      if (document.visibilityState === 'visible') setUnseen(new Set());
    };
    clear();
    document.addEventListener('visibilitychange', clear);
    return () => document.removeEventListener('visibilitychange', clear);
  }, [onQueue, unseen]);

  const count = unseen.size;
  useEffect(() => {
    const base = document.title.replace(TITLE_COUNT, '');
    document.title = count > 0 ? `(${count}) ${base}` : base;
    setFavicon(count > 0 ? badgeIcon(count) : null);
  }, [count]);
  // react-admin retitles the page on navigation: keep the count in front.
  useEffect(() => {
    const observer = new MutationObserver(() => {
      if (count > 0 && !TITLE_COUNT.test(document.title)) document.title = `(${count}) ${document.title}`;
    });
    const title = document.querySelector('title');
    if (title) observer.observe(title, { childList: true, characterData: true, subtree: true });
    return () => observer.disconnect();
  }, [count]);

  const toggleSound = () => {
    const next = !sound;
    localStorage.setItem(SOUND_KEY, next ? 'on' : 'off');
    setSound(next);
    if (next) chime(); // also unlocks audio with this click
  };
  return { count, sound, toggleSound };
}

type Attention = ReturnType<typeof useDepositAttention>;
const AttentionContext = createContext<Attention>({ count: 0, sound: false, toggleSound: () => undefined });

/** One watcher for the whole layout: the app bar and the menu's badge read the same count. */
export function AttentionProvider({ children }: { children: React.ReactNode }) {
  const attention = useDepositAttention();
  return <AttentionContext.Provider value={attention}>{children}</AttentionContext.Provider>;
}

export function useAttention(): Attention {
  return useContext(AttentionContext);
}

/** The app bar's part: the sound switch and a live region that reads the count out. */
export function AttentionControls() {
  const translate = useTranslate();
  const { count, sound, toggleSound } = useAttention();
  return (
    <>
      <span
        aria-live="polite"
        data-testid="attention-count"
        data-count={count}
        style={{ position: 'absolute', width: 1, height: 1, overflow: 'hidden', clip: 'rect(0 0 0 0)' }}
      >
        {count > 0 ? translate('tg.attention.announced', { smart_count: count }) : ''}
      </span>
      <Tooltip title={translate('tg.attention.sound')}>
        <IconButton
          color="inherit"
          aria-label={translate('tg.attention.sound')}
          aria-pressed={sound}
          onClick={toggleSound}
        >
          {sound ? <NotificationsActiveIcon /> : <NotificationsOffIcon />}
        </IconButton>
      </Tooltip>
    </>
  );
}

/** The deposits' menu icon with the count of deposits needing a look as a red badge. */
export function DepositsMenuIcon() {
  const { count } = useAttention();
  return (
    <Badge
      badgeContent={count}
      color="error"
      max={99}
      invisible={count === 0}
      slotProps={{ badge: { 'data-testid': 'deposits-badge' } as Record<string, unknown> }}
    >
      <ArrowDownwardIcon />
    </Badge>
  );
}
