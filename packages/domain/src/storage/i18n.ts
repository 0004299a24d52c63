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
    oneFile: 'Send one file at a time.',
    unreadable: 'The upload arrived incomplete or malformed; try again.',
  },
  es: {
    tooLarge: 'El archivo supera {{max}}.',
    wrongType: 'Este tipo de archivo no se acepta aquí.',
    notAWorkbook: 'Elija un libro de Excel (.xlsx).',
    usage: '{{used}} de {{quota}} usados',
    full: 'El almacenamiento está lleno',
    noFile: 'Elija un archivo.',
    oneFile: 'Envíe un solo archivo cada vez.',
    unreadable: 'El archivo llegó incompleto o dañado; inténtelo de nuevo.',
  },
  tr: {
    tooLarge: 'Dosya {{max}} boyutundan büyük.',
    wrongType: 'Bu dosya türü burada kabul edilmiyor.',
    notAWorkbook: 'Bir Excel çalışma kitabı (.xlsx) seçin.',
    usage: '{{quota}} alanın {{used}} kadarı kullanıldı',
    full: 'Depolama alanı dolu',
    noFile: 'Bir dosya seçin.',
    oneFile: 'Her seferinde tek bir dosya gönderin.',
    unreadable: 'Dosya eksik veya bozuk ulaştı; yeniden deneyin.',
  },
  zh: {
    tooLarge: '文件超过 {{max}}。',
    wrongType: '此处不接受这种文件类型。',
    notAWorkbook: '请选择 Excel 工作簿（.xlsx）。',
    usage: '已使用 {{used}} / {{quota}}',
    full: '存储空间已满',
    noFile: '请选择一个文件。',
    oneFile: '请一次只发送一个文件。',
    unreadable: '文件上传不完整或格式有误，请重试。',
  },
});
