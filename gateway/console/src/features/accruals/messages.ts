import { defineMessages } from '../../shell/i18n.tsx';

/** The accrual moves' words (features/accruals). */
export const accrualMessages = defineMessages({
  en: {
    actions: 'Accrual moves',
    approve: 'Approve',
    invoice: 'Mark invoiced',
    cancel: 'Cancel accrual',
    invoiceTitle: 'Mark accrual {id} as invoiced',
    invoiceNo: 'Invoice number (optional)',
    cancelTitle: 'Cancel accrual {id}',
    cancelWarning: 'A cancelled accrual cannot be approved or invoiced any more.',
    reason: 'Reason (optional)',
    confirmInvoice: 'Mark invoiced',
    confirmCancel: 'Cancel accrual',
    back: 'Back',
    working: 'Working…',
    moved: 'Accrual {id} is now {state}.',
  },
  tr: {
    actions: 'Tahakkuk işlemleri',
    approve: 'Onayla',
    invoice: 'Faturalandı olarak işaretle',
    cancel: 'Tahakkuku iptal et',
    invoiceTitle: '{id} numaralı tahakkuku faturalandı olarak işaretle',
    invoiceNo: 'Fatura numarası (isteğe bağlı)',
    cancelTitle: '{id} numaralı tahakkuku iptal et',
    cancelWarning: 'İptal edilen tahakkuk artık onaylanamaz ve faturalanamaz.',
    reason: 'Neden (isteğe bağlı)',
    confirmInvoice: 'Faturalandı olarak işaretle',
    confirmCancel: 'Tahakkuku iptal et',
    back: 'Geri',
    working: 'İşleniyor…',
    moved: '{id} numaralı tahakkuk artık {state}.',
  },
});
