/**
 * The broadcasts plugin's server texts shown to owners (issue 27 §5), in the seven interface
 * languages; the dashboard also maps them by `code` to its own translations.
 */
import type { LangCode } from '../../engine/schemas.ts';

/** "This broadcast would reach nobody": the 400's text per language (issue 27 §5). */
export const NO_AUDIENCE: Record<LangCode, string> = {
  es: 'No hay seguidores a los que enviar esta difusión. Los de WhatsApp Cloud necesitan la plantilla de difusión aprobada por Meta.',
  en: 'There are no followers to send this broadcast to. WhatsApp Cloud followers need the broadcast template approved by Meta.',
  fr: 'Aucun abonné à qui envoyer cette diffusion. Ceux de WhatsApp Cloud ont besoin du modèle de diffusion approuvé par Meta.',
  de: 'Es gibt keine Follower, an die diese Rundsendung gehen kann. WhatsApp-Cloud-Follower brauchen die von Meta genehmigte Rundsende-Vorlage.',
  it: 'Non ci sono follower a cui inviare questa diffusione. Quelli di WhatsApp Cloud richiedono il modello di diffusione approvato da Meta.',
  ru: 'Нет подписчиков, которым можно отправить эту рассылку. Подписчикам WhatsApp Cloud нужен одобренный Meta шаблон рассылки.',
  hi: 'इस प्रसारण को भेजने के लिए कोई फ़ॉलोअर नहीं है। WhatsApp Cloud फ़ॉलोअर्स के लिए Meta से स्वीकृत प्रसारण टेम्पलेट चाहिए।',
};
