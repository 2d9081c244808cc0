import AccountBalanceIcon from '@mui/icons-material/AccountBalance';
import type { PanelResource } from '../types';
import { ReconciliationPage } from './reconciliation-page';

/** The reconciliation screen: statement import and the queue (its own page, no react-admin data provider). */
export const reconciliationResource: PanelResource = {
  name: 'reconciliation',
  list: ReconciliationPage,
  icon: AccountBalanceIcon,
  options: { label: 'recon.title' },
};

const differences = (labels: Record<string, string>) => labels;

export const messages = {
  en: {
    recon: {
      title: 'Reconciliation',
      day: 'Day',
      report_csv: 'Report (CSV)',
      summary:
        'Statement: closing balance %{closing}, credits %{credits}: matched %{matched}, dismissed %{dismissed}, unmatched %{unmatched}. Deposits: issued %{issued}, approved %{approved}, approved without a statement line %{bare}.',
      account: 'Receiving account',
      import: 'Import a bank statement',
      format: 'Format',
      preset: 'Layout',
      file: 'Statement file',
      upload: 'Import',
      report:
        '%{inFile} lines in the file: %{fresh} new, %{known} imported before; %{auto} matched by themselves, %{strong} strong matches waiting for a click, %{queued} credits in the queue',
      refused: 'The file was refused as a whole:',
      queue: 'Queue: %{count} lines to decide',
      queue_empty: 'Nothing to decide for this account.',
      deposit: 'Deposit',
      score: 'Score',
      reasons: 'Why',
      strong: 'strong',
      match: 'Match and approve',
      match_received: 'Approve at the received amount',
      dismiss: 'Dismiss',
      reason: 'Reason',
      no_candidates: 'No candidate deposit (unknown credit).',
      decided: 'Done',
      difference: differences({
        paid_less: 'paid less',
        paid_more: 'paid more',
        paid_after_expiry: 'paid after expiry',
        paid_twice: 'paid twice',
        third_party: 'third party',
        unknown_credit: 'unknown credit',
      }),
    },
  },
  tr: {
    recon: {
      title: 'Mutabakat',
      day: 'Gün',
      report_csv: 'Rapor (CSV)',
      summary:
        'Ekstre: kapanış bakiyesi %{closing}, alacaklar %{credits}: eşleşen %{matched}, kapatılan %{dismissed}, eşleşmeyen %{unmatched}. Yatırımlar: verilen %{issued}, onaylanan %{approved}, ekstre satırı olmadan onaylanan %{bare}.',
      account: 'Alıcı hesap',
      import: 'Banka ekstresi yükle',
      format: 'Biçim',
      preset: 'Düzen',
      file: 'Ekstre dosyası',
      upload: 'Yükle',
      report:
        'Dosyada %{inFile} satır: %{fresh} yeni, %{known} daha önce yüklenmiş; %{auto} kendiliğinden eşleşti, %{strong} güçlü eşleşme onay bekliyor, kuyrukta %{queued} alacak',
      refused: 'Dosya bütünüyle reddedildi:',
      queue: 'Kuyruk: karar bekleyen %{count} satır',
      queue_empty: 'Bu hesap için karar bekleyen satır yok.',
      deposit: 'Yatırım',
      score: 'Puan',
      reasons: 'Neden',
      strong: 'güçlü',
      match: 'Eşleştir ve onayla',
      match_received: 'Gelen tutarla onayla',
      dismiss: 'Kapat',
      reason: 'Gerekçe',
      no_candidates: 'Aday yatırım yok (bilinmeyen alacak).',
      decided: 'Tamam',
      difference: differences({
        paid_less: 'eksik ödeme',
        paid_more: 'fazla ödeme',
        paid_after_expiry: 'süre dolduktan sonra',
        paid_twice: 'iki kez ödendi',
        third_party: 'üçüncü kişi',
        unknown_credit: 'bilinmeyen alacak',
      }),
    },
  },
};
