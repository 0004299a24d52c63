import { defineMessages } from '../i18n/define.js';

/** Texts about files and the storage quota (namespace `storage`). */
export const storageMessages = defineMessages({
  en: {
    tooLarge: 'The file is larger than {{max}}.',
    wrongType: 'This type of file is not accepted here.',
    notAWorkbook: 'Choose an Excel workbook (.xlsx).',
    usage: '{{used}} of {{quota}} used',
    full: 'Storage is full',
    noFile: 'Choose a file.',
  },
  es: {
    tooLarge: 'El archivo supera {{max}}.',
    wrongType: 'Este tipo de archivo no se acepta aquí.',
    notAWorkbook: 'Elija un libro de Excel (.xlsx).',
    usage: '{{used}} de {{quota}} usados',
    full: 'El almacenamiento está lleno',
    noFile: 'Elija un archivo.',
  },
  tr: {
    tooLarge: 'Dosya {{max}} boyutundan büyük.',
    wrongType: 'Bu dosya türü burada kabul edilmiyor.',
    notAWorkbook: 'Bir Excel çalışma kitabı (.xlsx) seçin.',
    usage: '{{quota}} alanın {{used}} kadarı kullanıldı',
    full: 'Depolama alanı dolu',
    noFile: 'Bir dosya seçin.',
  },
  zh: {
    tooLarge: '文件超过 {{max}}。',
    wrongType: '此处不接受这种文件类型。',
    notAWorkbook: '请选择 Excel 工作簿（.xlsx）。',
    usage: '已使用 {{used}} / {{quota}}',
    full: '存储空间已满',
    noFile: '请选择一个文件。',
  },
});
