/**
 * What the message templates feature says (issue 28): the notes the owner reads in the connection's
 * health (Spanish, like the channel's other notes in ../texts.ts) and the owner routes' 4xx errors in
 * the seven languages (the dashboard's `x-app-language`, engine/auth/mail.ts `requestLanguage`).
 */
import type { LangCode } from '../../../engine/schemas.ts';

/** Health notes (Spanish, as every note of the connection). */
export const TEMPLATE_NOTES = {
  noTemplate:
    'Un mensaje para {chat} espera: han pasado más de 24 horas desde su último mensaje y la plantilla {template} no está aprobada por Meta en ningún idioma que sirva ({langs}). Envía las plantillas desde la pantalla de WhatsApp; se entregará cuando vuelva a escribir.',
  heldFailed: 'No se pudo entregar a {chat} un mensaje retenido: {reason}',
  refused:
    'Meta rechazó la plantilla {template} para {chat}: {reason}. El mensaje espera a que vuelva a escribir.',
} as const;

/** Why a message waits, as the owner's route gives it (the dashboard words it). */
export type WaitingReason = 'template_sent' | 'no_approved_template' | 'template_refused';

/** The owner routes' errors. */
export interface TemplateRouteErrors {
  /** The bot's WhatsApp is not a Cloud API number (templates are a Cloud API feature). */
  notCloud: string;
  /** The connection has no WhatsApp Business Account id (templates belong to the account). */
  noAccount: string;
  /** Meta refused or failed ({reason}). */
  meta: string;
}

export const TEMPLATE_ROUTE_ERRORS: Record<LangCode, TemplateRouteErrors> = {
  es: {
    notCloud:
      'Las plantillas de mensajes solo existen con la API Cloud de WhatsApp. Conecta tu número con Meta primero.',
    noAccount:
      'Falta el identificador de la cuenta de WhatsApp Business. Vuelve a conectar el número con la API Cloud indicándolo.',
    meta: 'Meta no aceptó la petición: {reason}',
  },
  en: {
    notCloud:
      'Message templates only exist with the WhatsApp Cloud API. Connect your number through Meta first.',
    noAccount:
      'The WhatsApp Business Account id is missing. Connect the number to the Cloud API again and enter it.',
    meta: 'Meta did not accept the request: {reason}',
  },
  fr: {
    notCloud:
      'Les modèles de message n’existent qu’avec l’API Cloud de WhatsApp. Connectez d’abord votre numéro via Meta.',
    noAccount:
      'L’identifiant du compte WhatsApp Business manque. Reconnectez le numéro à l’API Cloud en l’indiquant.',
    meta: 'Meta n’a pas accepté la demande : {reason}',
  },
  de: {
    notCloud:
      'Nachrichtenvorlagen gibt es nur mit der WhatsApp Cloud API. Verbinde deine Nummer zuerst über Meta.',
    noAccount:
      'Die ID des WhatsApp-Business-Kontos fehlt. Verbinde die Nummer erneut mit der Cloud API und gib sie an.',
    meta: 'Meta hat die Anfrage nicht angenommen: {reason}',
  },
  it: {
    notCloud:
      'I modelli di messaggio esistono solo con l’API Cloud di WhatsApp. Collega prima il tuo numero tramite Meta.',
    noAccount: 'Manca l’ID dell’account WhatsApp Business. Ricollega il numero all’API Cloud indicandolo.',
    meta: 'Meta non ha accettato la richiesta: {reason}',
  },
  ru: {
    notCloud: 'Шаблоны сообщений есть только в WhatsApp Cloud API. Сначала подключите номер через Meta.',
    noAccount: 'Не указан ID аккаунта WhatsApp Business. Подключите номер к Cloud API заново и укажите его.',
    meta: 'Meta не приняла запрос: {reason}',
  },
  hi: {
    notCloud: 'मैसेज टेम्पलेट सिर्फ़ WhatsApp Cloud API के साथ होते हैं। पहले अपना नंबर Meta से जोड़ें।',
    noAccount: 'WhatsApp Business खाते की ID नहीं है। नंबर को Cloud API से फिर से जोड़ें और ID डालें।',
    meta: 'Meta ने अनुरोध स्वीकार नहीं किया: {reason}',
  },
};
