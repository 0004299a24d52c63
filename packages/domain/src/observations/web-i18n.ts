import { defineMessages } from '../i18n/define.js';

/**
 * Texts only the observation screens show (namespace `observationsWeb`); the record's own words
 * (fields, statuses, validation) live in `observations` (./i18n.ts).
 */
export const observationsWebMessages = defineMessages({
  en: {
    notFound: 'This observation does not exist or was deleted.',
    actions: {
      row: 'Action {{n}}',
      removeRow: 'Remove action {{n}}',
    },
    attachments: {
      hint: 'Photos, PDF or office documents, up to {{max}} each.',
      choose: 'Add photos or documents',
      drop: 'Drop files here or tap to choose them',
      camera: 'Take a photo',
      uploading: '{{size}} · uploading {{percent}}%',
      progress: 'Upload of {{name}}',
      remove: 'Remove {{name}}',
      tooMany: 'At most {{count}} attachments.',
      wait: 'Wait until every file has finished uploading.',
      download: 'Download {{name}}',
    },
    form: {
      noCategories: 'No categories for this type',
      pickSiteFirst: 'Choose the site first: the time is the site’s own.',
      raisedActions: 'Actions already raised',
      wholeSite: 'The whole site',
    },
    list: {
      // A keyword search counts at most 1,000 matches: past them the total and the tab counts are lower bounds.
      totalAtLeast_one: 'More than {{total}} results',
      totalAtLeast_other: 'More than {{total}} results',
      countAtLeast: '{{total}}+',
      clear: 'Clear filters',
    },
    import: {
      help: 'Fill in the template, one observation per row. If any row is wrong, nothing is imported and every wrong row is listed.',
      choose: 'Workbook (.xlsx)',
      upload: 'Import',
      report: 'Rows to correct',
      column: 'Column',
      problem: 'Problem',
    },
    report: {
      print: 'Print',
    },
    guest: {
      signIn: 'Staff member? Sign in',
      noOrganization: 'No organisation takes reports at this address. Check the link you were given.',
      rateLimited: 'Too many reports were sent from this connection. Wait a few minutes, then send it again; what you typed is kept.',
      emailHint: 'Optional: only if you want to hear back.',
    },
  },
  es: {
    notFound: 'Esta observación no existe o fue eliminada.',
    actions: {
      row: 'Acción {{n}}',
      removeRow: 'Quitar la acción {{n}}',
    },
    attachments: {
      hint: 'Fotos, PDF o documentos de Office, hasta {{max}} cada uno.',
      choose: 'Añadir fotos o documentos',
      drop: 'Suelte los archivos aquí o toque para elegirlos',
      camera: 'Hacer una foto',
      uploading: '{{size}} · subiendo {{percent}} %',
      progress: 'Subida de {{name}}',
      remove: 'Quitar {{name}}',
      tooMany: 'Como máximo {{count}} adjuntos.',
      wait: 'Espere a que terminen de subirse todos los archivos.',
      download: 'Descargar {{name}}',
    },
    form: {
      noCategories: 'No hay categorías para este tipo',
      pickSiteFirst: 'Elija primero el centro: la hora es la del centro.',
      raisedActions: 'Acciones ya creadas',
      wholeSite: 'Todo el centro',
    },
    list: {
      // A keyword search counts at most 1,000 matches: past them the total and the tab counts are lower bounds.
      totalAtLeast_one: 'Más de {{total}} resultados',
      totalAtLeast_other: 'Más de {{total}} resultados',
      countAtLeast: '{{total}}+',
      clear: 'Quitar filtros',
    },
    import: {
      help: 'Rellene la plantilla, una observación por fila. Si alguna fila es incorrecta, no se importa nada y se listan todas las filas incorrectas.',
      choose: 'Libro (.xlsx)',
      upload: 'Importar',
      report: 'Filas que corregir',
      column: 'Columna',
      problem: 'Problema',
    },
    report: {
      print: 'Imprimir',
    },
    guest: {
      signIn: '¿Es parte del personal? Inicie sesión',
      noOrganization: 'Ninguna organización recibe informes en esta dirección. Compruebe el enlace que le dieron.',
      rateLimited: 'Se enviaron demasiados informes desde esta conexión. Espere unos minutos y vuelva a enviarlo; lo escrito se conserva.',
      emailHint: 'Opcional: solo si desea recibir respuesta.',
    },
  },
  tr: {
    notFound: 'Bu gözlem yok veya silinmiş.',
    actions: {
      row: 'Faaliyet {{n}}',
      removeRow: '{{n}}. faaliyeti kaldır',
    },
    attachments: {
      hint: 'Fotoğraf, PDF veya ofis belgeleri, her biri en fazla {{max}}.',
      choose: 'Fotoğraf veya belge ekle',
      drop: 'Dosyaları buraya bırakın veya seçmek için dokunun',
      camera: 'Fotoğraf çek',
      uploading: '{{size}} · yükleniyor %{{percent}}',
      progress: '{{name}} yüklemesi',
      remove: '{{name}} dosyasını kaldır',
      tooMany: 'En fazla {{count}} ek.',
      wait: 'Tüm dosyaların yüklenmesi bitene kadar bekleyin.',
      download: '{{name}} dosyasını indir',
    },
    form: {
      noCategories: 'Bu tür için kategori yok',
      pickSiteFirst: 'Önce sahayı seçin: saat, sahanın kendi saatidir.',
      raisedActions: 'Açılmış faaliyetler',
      wholeSite: 'Sahanın tamamı',
    },
    list: {
      // A keyword search counts at most 1,000 matches: past them the total and the tab counts are lower bounds.
      totalAtLeast_one: '{{total}} sonuçtan fazla',
      totalAtLeast_other: '{{total}} sonuçtan fazla',
      countAtLeast: '{{total}}+',
      clear: 'Filtreleri temizle',
    },
    import: {
      help: 'Şablonu doldurun, her satıra bir gözlem. Herhangi bir satır hatalıysa hiçbir şey içe aktarılmaz ve tüm hatalı satırlar listelenir.',
      choose: 'Çalışma kitabı (.xlsx)',
      upload: 'İçe aktar',
      report: 'Düzeltilecek satırlar',
      column: 'Sütun',
      problem: 'Sorun',
    },
    report: {
      print: 'Yazdır',
    },
    guest: {
      signIn: 'Çalışan mısınız? Oturum açın',
      noOrganization: 'Bu adreste bildirim alan bir kuruluş yok. Size verilen bağlantıyı kontrol edin.',
      rateLimited: 'Bu bağlantıdan çok fazla bildirim gönderildi. Birkaç dakika bekleyip yeniden gönderin; yazdıklarınız korunur.',
      emailHint: 'İsteğe bağlı: yalnızca geri dönüş almak isterseniz.',
    },
  },
  zh: {
    notFound: '此观察记录不存在或已被删除。',
    actions: {
      row: '措施 {{n}}',
      removeRow: '删除措施 {{n}}',
    },
    attachments: {
      hint: '照片、PDF 或办公文档，每个不超过 {{max}}。',
      choose: '添加照片或文档',
      drop: '将文件拖到此处，或点按选择',
      camera: '拍照',
      uploading: '{{size}} · 正在上传 {{percent}}%',
      progress: '{{name}} 的上传进度',
      remove: '删除 {{name}}',
      tooMany: '最多 {{count}} 个附件。',
      wait: '请等待所有文件上传完成。',
      download: '下载 {{name}}',
    },
    form: {
      noCategories: '此类型没有类别',
      pickSiteFirst: '请先选择现场：时间以现场当地时间为准。',
      raisedActions: '已创建的措施',
      wholeSite: '整个现场',
    },
    list: {
      // A keyword search counts at most 1,000 matches: past them the total and the tab counts are lower bounds.
      totalAtLeast_one: '超过 {{total}} 条结果',
      totalAtLeast_other: '超过 {{total}} 条结果',
      countAtLeast: '{{total}}+',
      clear: '清除筛选',
    },
    import: {
      help: '按模板填写，每行一条观察记录。只要有一行有误，就不会导入任何内容，并列出所有有误的行。',
      choose: '工作簿（.xlsx）',
      upload: '导入',
      report: '需更正的行',
      column: '列',
      problem: '问题',
    },
    report: {
      print: '打印',
    },
    guest: {
      signIn: '是员工？请登录',
      noOrganization: '此地址没有接收报告的组织。请检查您收到的链接。',
      rateLimited: '此连接发送的报告过多。请等几分钟后再发送；您填写的内容会保留。',
      emailHint: '可选：仅在您希望收到回复时填写。',
    },
  },
});
