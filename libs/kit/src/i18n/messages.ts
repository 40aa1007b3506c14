/**
 * Error messages in the platform's two languages. A message is chosen by key and filled with the
 * error's parameters: `{field}` is replaced by `params.field`.
 *
 * @example
 * translate('tr', 'field.unknown', { field: 'colour' }) // "Bilinmeyen alan: colour"
 */
export const LANGUAGES = ['en', 'tr'] as const;
export type Language = (typeof LANGUAGES)[number];

const catalogue = {
  'session.expired': {
    en: 'Your session has expired or is invalid; please log in again',
    tr: 'Oturumunuzun süresi doldu veya oturum geçersiz; lütfen tekrar giriş yapın',
  },
  'login.failed': { en: 'Wrong user code or password', tr: 'Kullanıcı kodu veya şifre hatalı' },
  'sso.failed': { en: 'Single sign-on failed: sign in again', tr: 'Tek oturum açma başarısız oldu: yeniden giriş yapın' },
  'access.denied': { en: 'You are not allowed to do this', tr: 'Bu işlem için yetkiniz yok' },
  'apiKey.invalid': { en: 'API key missing or wrong', tr: 'API anahtarı eksik veya hatalı' },
  'captcha.rejected': { en: 'Captcha verification failed', tr: 'Captcha doğrulaması başarısız' },
  'password.wrongCurrent': { en: 'The current password is wrong', tr: 'Mevcut şifre hatalı' },
  'secondFactor.failed': { en: 'The code is wrong, used already, or the login has expired', tr: 'Kod hatalı ya da kullanılmış, veya girişin süresi doldu' },
  'secondFactor.codeWrong': { en: 'The code is wrong or used already', tr: 'Kod hatalı ya da kullanılmış' },
  'secondFactor.locked': {
    en: 'Too many wrong codes: the second factor takes none for 15 minutes',
    tr: 'Çok fazla hatalı kod: ikinci doğrulama 15 dakika boyunca kod kabul etmiyor',
  },
  'secondFactor.state': { en: 'The second factor is not in a state that allows this', tr: 'İkinci doğrulama bu işleme uygun durumda değil' },
  'body.malformed': { en: 'The request body is not valid JSON', tr: 'İstek gövdesi geçerli bir JSON değil' },
  'body.notObject': { en: 'The request body must be a JSON object', tr: 'İstek gövdesi bir JSON nesnesi olmalı' },
  'body.tooLarge': {
    en: 'The request body is larger than {limit} bytes',
    tr: 'İstek gövdesi {limit} bayttan büyük',
  },
  'field.unknown': { en: 'Unknown field: {field}', tr: 'Bilinmeyen alan: {field}' },
  'field.required': { en: 'Field is required: {field}', tr: 'Alan zorunlu: {field}' },
  'field.invalid': { en: 'Field is invalid: {field}', tr: 'Alan geçersiz: {field}' },
  'field.directionControl': {
    en: 'Field {field} holds a text-direction control character',
    tr: '{field} alanı bir yazı yönü denetim karakteri içeriyor',
  },
  'field.type': {
    en: 'Field {field} must be of type {type}',
    tr: '{field} alanı {type} türünde olmalı',
  },
  'field.tooLong': {
    en: 'Field {field} is longer than {max} characters',
    tr: '{field} alanı {max} karakterden uzun',
  },
  'field.tooLongBytes': {
    en: 'Field {field} is longer than {max} bytes',
    tr: '{field} alanı {max} bayttan uzun',
  },
  'field.tooShort': {
    en: 'Field {field} is shorter than {min} characters',
    tr: '{field} alanı {min} karakterden kısa',
  },
  'field.outOfRange': { en: 'Field {field} is out of range', tr: '{field} alanı izin verilen aralığın dışında' },
  'field.enum': {
    en: 'Field {field} must be one of {values}',
    tr: '{field} alanı şunlardan biri olmalı: {values}',
  },
  'field.reference': {
    en: 'Field {field} does not name a record of this tenant',
    tr: '{field} alanı bu kiracıya ait bir kaydı göstermiyor',
  },
  'field.readOnly': { en: 'Field {field} cannot be changed', tr: '{field} alanı değiştirilemez' },
  'category.cycle': {
    en: 'Field {field} names the category itself or one of its descendants',
    tr: '{field} alanı kategorinin kendisini ya da alt kategorilerinden birini gösteriyor',
  },
  'matchingRule.regex': {
    en: 'Field {field} is not a regular expression PostgreSQL accepts',
    tr: "{field} alanı PostgreSQL'in kabul ettiği bir düzenli ifade değil",
  },
  'user.unknown': { en: 'Field {field} names no user', tr: '{field} alanı hiçbir kullanıcıyı göstermiyor' },
  'user.notInTenant': {
    en: 'The user named in {field} has no userProcessSelect for this tenant',
    tr: '{field} alanındaki kullanıcının bu kiracı için userProcessSelect kaydı yok',
  },
  'field.pattern': { en: 'Field {field} must match {pattern}', tr: '{field} alanı {pattern} biçiminde olmalı' },
  'field.notBefore': { en: 'Field {field} must not be before {other}', tr: '{field} alanı {other} alanından önce olamaz' },
  'field.within': { en: 'Field {field} needs {other}', tr: '{field} alanı {other} alanı olmadan verilemez' },
  'webhook.url': {
    en: 'Field {field} must be an absolute http(s) URL without credentials',
    tr: '{field} alanı kimlik bilgisi içermeyen mutlak bir http(s) adresi olmalı',
  },
  'webhook.target': {
    en: 'Field {field} names a host whose address is not allowed as a webhook target',
    tr: '{field} alanındaki sunucunun adresi webhook hedefi olarak kabul edilmiyor',
  },
  'webhook.eventType': {
    en: 'Field {field} must be an event type pattern: <entity>.<what>, <entity>.* or * alone',
    tr: '{field} alanı bir olay türü kalıbı olmalı: <varlık>.<olay>, <varlık>.* ya da yalnız *',
  },
  'webhook.eventTypeUnknown': {
    en: 'Field {field} matches no event type of the platform',
    tr: '{field} alanı platformun hiçbir olay türüyle eşleşmiyor',
  },
  'param.invalid': { en: 'Parameter is invalid: {param}', tr: 'Parametre geçersiz: {param}' },
  'param.unknown': { en: 'Unknown parameter: {param}', tr: 'Bilinmeyen parametre: {param}' },
  'param.repeated': {
    en: 'Parameter given more than once: {param}',
    tr: 'Parametre birden fazla kez verilmiş: {param}',
  },
  'header.invalid': { en: 'Header is invalid: {header}', tr: 'Başlık geçersiz: {header}' },
  'headers.tooLarge': { en: 'The request headers are too large', tr: 'İstek başlıkları çok büyük' },
  'request.malformed': { en: 'The request is not valid HTTP', tr: 'İstek geçerli bir HTTP isteği değil' },
  'request.timeout': { en: 'The request did not arrive in time', tr: 'İstek zamanında ulaşmadı' },
  'body.unreadable': {
    en: 'The request body cannot be read as its Content-Encoding says',
    tr: 'İstek gövdesi Content-Encoding başlığında belirtildiği gibi okunamıyor',
  },
  'body.tooDeep': {
    en: 'The request body is nested deeper than {max} levels at {field}',
    tr: 'İstek gövdesi {field} konumunda {max} düzeyden daha derin',
  },
  'page.size': { en: 'Page size must be between 1 and {max}', tr: 'Sayfa boyutu 1 ile {max} arasında olmalı' },
  'page.index': { en: 'Page index must not be negative', tr: 'Sayfa numarası negatif olamaz' },
  'page.after': {
    en: 'The after cursor is not one this list gave for this sort',
    tr: 'after imleci bu listenin bu sıralama için verdiği bir imleç değil',
  },
  'page.withAfter': {
    en: 'A page index cannot be combined with an after cursor',
    tr: 'Sayfa numarası after imleciyle birlikte verilemez',
  },
  'sort.field': { en: 'Cannot sort by: {field}', tr: 'Bu alana göre sıralanamaz: {field}' },
  'sort.direction': { en: 'Sort direction must be ASC or DESC', tr: 'Sıralama yönü ASC veya DESC olmalı' },
  'export.paging': {
    en: 'An export reads every page of the list: {field} is not accepted',
    tr: 'Dışa aktarma listenin tüm sayfalarını okur: {field} kabul edilmez',
  },
  'export.ids': {
    en: 'An export names between 1 and {max} records in {field}',
    tr: 'Dışa aktarma {field} içinde 1 ile {max} arasında kayıt belirtir',
  },
  'filter.unknown': { en: 'Unknown filter field: {field}', tr: 'Bilinmeyen filtre alanı: {field}' },
  'filter.crProcessIdRequired': {
    en: 'The list filter must contain crProcessId',
    tr: 'Liste filtresi crProcessId içermeli',
  },
  'upload.tooLarge': { en: 'The file is too large', tr: 'Dosya çok büyük' },
  'upload.typeNotAllowed': { en: 'This file type is not allowed', tr: 'Bu dosya türüne izin verilmiyor' },
  'upload.quotaExceeded': { en: 'The storage quota is exceeded', tr: 'Depolama kotası aşıldı' },
  'upload.infected': {
    en: 'The virus scan found malware in field {field}; the file was not stored',
    tr: '{field} alanında virüs taraması zararlı yazılım buldu; dosya kaydedilmedi',
  },
  'upload.tooLargeToScan': {
    en: 'The file is larger than the virus scanner accepts',
    tr: 'Dosya virüs tarayıcısının kabul ettiğinden büyük',
  },
  'upload.scanUnavailable': {
    en: 'The virus scanner is unavailable; the file was not stored, please try again',
    tr: 'Virüs tarayıcısına ulaşılamıyor; dosya kaydedilmedi, lütfen tekrar deneyin',
  },
  'text.running': {
    en: "The file's words are being read now; ask again once that has ended",
    tr: 'Dosyanın metni şu anda okunuyor; bu bittiğinde yeniden isteyin',
  },
  'text.extractionOff': {
    en: 'Text extraction is off on this platform (DMS_TEXT_EXTRACTION)',
    tr: 'Bu platformda metin çıkarma kapalı (DMS_TEXT_EXTRACTION)',
  },
  'file.legalHold': {
    en: 'The file is under legal hold and cannot be deleted',
    tr: 'Dosya yasal saklama altında ve silinemez',
  },
  'upload.notMultipart': {
    en: 'The upload must be multipart/form-data with one file part named file',
    tr: 'Yükleme, file adlı tek bir dosya parçası içeren multipart/form-data olmalı',
  },
  'tus.version': { en: 'Tus-Resumable must be 1.0.0', tr: 'Tus-Resumable 1.0.0 olmalı' },
  'tus.contentType': {
    en: 'A PATCH of an upload must be application/offset+octet-stream',
    tr: 'Bir yüklemenin PATCH isteği application/offset+octet-stream olmalı',
  },
  'tus.header': { en: 'Header is invalid: {header}', tr: 'Başlık geçersiz: {header}' },
  'tus.offset': {
    en: 'Upload-Offset is not the offset of the upload; ask it with HEAD and resume from there',
    tr: 'Upload-Offset yüklemenin konumu değil; HEAD ile sorup oradan devam edin',
  },
  'tus.locked': {
    en: 'Another request is writing this upload; try again shortly',
    tr: 'Bu yüklemeye başka bir istek yazıyor; birazdan tekrar deneyin',
  },
  'tus.completed': { en: 'The upload is complete', tr: 'Yükleme tamamlandı' },
  'tus.tooManyOpen': {
    en: 'You have {limit} unfinished uploads; finish or delete one first',
    tr: '{limit} tamamlanmamış yüklemeniz var; önce birini tamamlayın ya da silin',
  },
  'download.signature': { en: 'The download link is invalid', tr: 'İndirme bağlantısı geçersiz' },
  'download.expired': { en: 'The download link has expired', tr: 'İndirme bağlantısının süresi doldu' },
  'share.passwordRequired': { en: 'This share link needs its password', tr: 'Bu paylaşım bağlantısı şifre gerektiriyor' },
  'share.passwordWrong': { en: 'The share link password is wrong', tr: 'Paylaşım bağlantısı şifresi hatalı' },
  'share.gone': { en: 'The share link has expired, is passive or is used up', tr: 'Paylaşım bağlantısının süresi dolmuş, pasif ya da tükenmiş' },
  'import.notUtf8': { en: 'The file is not valid UTF-8 text: save it as CSV UTF-8', tr: 'Dosya geçerli bir UTF-8 metni değil: CSV UTF-8 olarak kaydedin' },
  'import.lineTooLong': { en: 'Line {line} of the file is longer than {max} bytes', tr: 'Dosyanın {line}. satırı {max} bayttan uzun' },
  'import.notReadable': { en: 'The file is not a CSV or XLSX file that can be read', tr: 'Dosya okunabilen bir CSV ya da XLSX dosyası değil' },
  'import.zipBomb': {
    en: 'The XLSX file inflates to more than the platform reads',
    tr: 'XLSX dosyası açıldığında platformun okuduğundan daha büyük oluyor',
  },
  'import.noHeader': { en: 'The file has no header row', tr: 'Dosyada başlık satırı yok' },
  'import.mapping': { en: 'The column mapping is invalid: {reason}', tr: 'Sütun eşlemesi geçersiz: {reason}' },
  'import.state': { en: 'The import is {status}: this is not possible now', tr: 'İçe aktarma {status} durumunda: bu işlem şimdi yapılamaz' },
  'import.duplicateInFile': {
    en: 'Field {field} has the same value as row {row} of the file',
    tr: '{field} alanı dosyanın {row}. satırıyla aynı değere sahip',
  },
  'import.reference': {
    en: 'Field {field}: no record of this tenant has the code or name {value}',
    tr: '{field} alanı: bu kiracıda {value} kodlu ya da adlı bir kayıt yok',
  },
  'import.referenceAmbiguous': {
    en: 'Field {field}: more than one record is named {value}; give its code',
    tr: '{field} alanı: {value} adında birden çok kayıt var; kodunu verin',
  },
  'import.accessLost': {
    en: 'The importing user no longer holds {role} in this tenant: the import stopped',
    tr: 'İçe aktaran kullanıcının bu kiracıda artık {role} yetkisi yok: içe aktarma durdu',
  },
  'import.failed': {
    en: 'The import stopped after an unexpected failure; reference {refId}',
    tr: 'İçe aktarma beklenmeyen bir hata sonucu durdu; referans {refId}',
  },
  'record.notFound': { en: 'Record not found: {resource}', tr: 'Kayıt bulunamadı: {resource}' },
  'path.notFound': { en: 'No such path: {path}', tr: 'Böyle bir yol yok: {path}' },
  'version.stale': {
    en: 'The record was changed by someone else; reload it and try again',
    tr: 'Kayıt başka biri tarafından değiştirildi; yeniden yükleyip tekrar deneyin',
  },
  'version.required': { en: 'Field is required: version', tr: 'Alan zorunlu: version' },
  'bulk.items': {
    en: 'Field items must be an array of 1 to {max} items',
    tr: 'items alanı 1 ile {max} arasında öğe içeren bir dizi olmalı',
  },
  'idempotency.keyReused': {
    en: 'The Idempotency-Key was used for another request; send a new key with this one',
    tr: 'Idempotency-Key başka bir istek için kullanıldı; bu istekle yeni bir anahtar gönderin',
  },
  'precondition.failed': {
    en: 'The record is not at the version If-Match names; reload it and try again',
    tr: 'Kayıt If-Match başlığının belirttiği sürümde değil; yeniden yükleyip tekrar deneyin',
  },
  'version.notInIfMatch': {
    en: 'Field version names a version If-Match does not name',
    tr: 'version alanı If-Match başlığının belirtmediği bir sürümü gösteriyor',
  },
  'record.referenced': {
    en: 'The record is still referenced by other records',
    tr: 'Kayıt başka kayıtlar tarafından kullanılıyor',
  },
  'transition.invalid': { en: 'This state change is not allowed', tr: 'Bu durum değişikliğine izin verilmiyor' },
  'record.duplicate': {
    en: 'A record with the same {field} already exists',
    tr: 'Aynı {field} değerine sahip bir kayıt zaten var',
  },
  'server.error': {
    en: 'An unexpected error occurred; reference {refId}',
    tr: 'Beklenmeyen bir hata oluştu; referans {refId}',
  },
  'service.unavailable': {
    en: 'A backing service is unavailable; please try again',
    tr: 'Bir arka plan servisi kullanılamıyor; lütfen tekrar deneyin',
  },
} as const satisfies Record<string, Record<Language, string>>;

export type MessageKey = keyof typeof catalogue;

export function isMessageKey(value: unknown): value is MessageKey {
  return typeof value === 'string' && Object.hasOwn(catalogue, value);
}

export function isLanguage(value: unknown): value is Language {
  return value === 'en' || value === 'tr';
}

export function translate(lang: Language, key: MessageKey, params: Record<string, string> = {}): string {
  return catalogue[key][lang].replace(/\{(\w+)\}/g, (whole, name: string) => params[name] ?? whole);
}

/**
 * The language of an Accept-Language header: the first `en` or `tr` in it, by order of appearance
 * (docs/interface.md#records), or undefined.
 */
export function languageFromHeader(header: string | undefined): Language | undefined {
  if (!header) return undefined;
  for (const part of header.split(',')) {
    const tag = part.split(';')[0]?.trim().toLowerCase().slice(0, 2);
    if (isLanguage(tag)) return tag;
  }
  return undefined;
}
