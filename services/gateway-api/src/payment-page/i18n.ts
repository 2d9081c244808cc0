import type { Lang } from './language.js';

/**
 * Every word the customer reads, in both languages. Functions take already-formatted values; the
 * view escapes whatever they return, so a customer name in `payFrom` can never become markup.
 */
export interface Texts {
  htmlTitle: string;
  heading: string;
  /** Label of the link that switches to the other language, written in that language. */
  switchTo: string;
  amountToSend: string;
  amount: string;
  detailsTitle: string;
  timeLeft: string;
  chooseBank: string;
  receivingBankBadge: string;
  otherBank: string;
  hintSameBank: string;
  hintFast: string;
  hintEft: string;
  sendTo: string;
  bank: string;
  holder: string;
  iban: string;
  reference: string;
  referenceHint: string;
  copy: string;
  copied: string;
  copyFailed: string;
  payFrom: (customerName: string) => string;
  reportButton: string;
  reportHint: string;
  sentAtLabel: string;
  waitingTitle: string;
  waitingBody: string;
  approvedTitle: string;
  approvedBody: string;
  rejectedTitle: string;
  rejectedBody: string;
  expiredTitle: string;
  expiredBody: string;
  refreshHint: string;
  notFoundTitle: string;
  notFoundBody: string;
  errorTitle: string;
  errorBody: string;
  footer: string;
  /** Who the customer pays (the merchant's name, escaped by the view). */
  payee: (merchantName: string) => string;
  /** The link back to the merchant's site, when the deposit gave a return URL. */
  backTo: (merchantName: string) => string;
}

const tr: Texts = {
  payee: (merchant) => `Ödeme alıcısı: ${merchant}`,
  backTo: (merchant) => `← ${merchant} sitesine dön`,
  htmlTitle: 'Havale ile ödeme',
  heading: 'Havale / EFT ile ödeme',
  switchTo: 'English',
  amountToSend: 'Gönderilecek tutar',
  amount: 'Tutar',
  detailsTitle: 'Ödeme bilgileri',
  timeLeft: 'Kalan süre',
  chooseBank: '1. Hangi bankadan göndereceksiniz?',
  receivingBankBadge: 'anında',
  otherBank: 'Diğer banka',
  hintSameBank: 'Aynı banka: havaleniz anında hesaba geçer.',
  hintFast: 'Farklı banka: FAST ile 7/24, genellikle birkaç dakika içinde ulaşır.',
  hintEft: 'Farklı banka: EFT ile iş günlerinde, mesai saatleri içinde ulaşır.',
  sendTo: '2. Bu hesaba tam tutarı gönderin',
  bank: 'Banka',
  holder: 'Alıcı adı',
  iban: 'IBAN',
  reference: 'Açıklama',
  referenceHint: 'Ödemenizin eşleşmesi için bu kodu açıklama alanına yazın.',
  copy: 'Kopyala',
  copied: 'Kopyalandı ✓',
  copyFailed: 'Seçildi, elle kopyalayın',
  payFrom: (name) => `Ödemeyi ${name} adına kayıtlı kendi hesabınızdan gönderin.`,
  reportButton: 'Havaleyi gönderdim',
  reportHint: '3. Gönderdikten sonra bu düğmeye basın.',
  sentAtLabel: 'Gönderim saati (isteğe bağlı)',
  waitingTitle: 'Havaleniz kontrol ediliyor',
  waitingBody: 'Para hesaba ulaştığında ödemeniz onaylanır. Bu sayfa kendiliğinden güncellenir.',
  approvedTitle: 'Ödemeniz onaylandı',
  approvedBody: 'Tutar hesabınıza aktarıldı. Bu sayfayı kapatabilirsiniz.',
  rejectedTitle: 'Ödemeniz onaylanmadı',
  rejectedBody:
    'Havaleniz doğrulanamadı. Para gönderdiyseniz, aşağıdaki açıklama koduyla ödemeyi başlattığınız siteye başvurun.',
  expiredTitle: 'Ödeme süresi doldu',
  expiredBody:
    'Bu ödeme isteği artık geçerli değil; yeni bir istek oluşturun. Para gönderdiyseniz, aşağıdaki açıklama koduyla ödemeyi başlattığınız siteye başvurun.',
  refreshHint: 'Güncel durumu görmek için sayfayı yenileyin.',
  notFoundTitle: 'Ödeme sayfası bulunamadı',
  notFoundBody: 'Bağlantı hatalı ya da artık geçerli değil. Ödemeyi başlattığınız siteye dönüp yeniden deneyin.',
  errorTitle: 'Bir sorun oluştu',
  errorBody: 'Sayfa şu anda gösterilemiyor. Lütfen biraz sonra yeniden deneyin.',
  footer: 'Bu bağlantı size özeldir; kimseyle paylaşmayın.',
};

const en: Texts = {
  payee: (merchant) => `Paying ${merchant}`,
  backTo: (merchant) => `← Back to ${merchant}`,
  htmlTitle: 'Pay by bank transfer',
  heading: 'Pay by bank transfer',
  switchTo: 'Türkçe',
  amountToSend: 'Amount to send',
  amount: 'Amount',
  detailsTitle: 'Payment details',
  timeLeft: 'Time left',
  chooseBank: '1. Which bank will you pay from?',
  receivingBankBadge: 'instant',
  otherBank: 'Another bank',
  hintSameBank: 'Same bank: your transfer arrives instantly.',
  hintFast: 'Different bank: FAST arrives 24/7, usually within minutes.',
  hintEft: 'Different bank: EFT arrives on business days, during banking hours.',
  sendTo: '2. Send the exact amount to this account',
  bank: 'Bank',
  holder: 'Account holder',
  iban: 'IBAN',
  reference: 'Description',
  referenceHint: 'Write this code in the transfer description so we can match your payment.',
  copy: 'Copy',
  copied: 'Copied ✓',
  copyFailed: 'Selected, copy it by hand',
  payFrom: (name) => `Send the payment from your own account in the name of ${name}.`,
  reportButton: 'I have sent the transfer',
  reportHint: '3. Press this button once you have sent it.',
  sentAtLabel: 'Time you sent it (optional)',
  waitingTitle: 'We are checking your transfer',
  waitingBody: 'Your payment is approved once the money arrives. This page updates by itself.',
  approvedTitle: 'Your payment is approved',
  approvedBody: 'The amount has been credited to your account. You can close this page.',
  rejectedTitle: 'Your payment was not approved',
  rejectedBody:
    'We could not confirm your transfer. If you sent money, contact the site where you started the payment and quote the code below.',
  expiredTitle: 'This payment has expired',
  expiredBody:
    'This payment request is no longer valid; please start a new one. If you sent money, contact the site where you started the payment and quote the code below.',
  refreshHint: 'Reload the page to see the latest status.',
  notFoundTitle: 'Payment page not found',
  notFoundBody:
    'The link is wrong or no longer valid. Go back to the site where you started the payment and try again.',
  errorTitle: 'Something went wrong',
  errorBody: 'The page cannot be shown right now. Please try again in a moment.',
  footer: 'This link is personal to you; do not share it.',
};

export const TEXTS: Record<Lang, Texts> = { tr, en };
