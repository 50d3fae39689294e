/** The site's legal pages (terms of service, privacy, security) in Spanish, kept apart from the marketing pages' words. */
import type { SiteContent } from '../types.ts';

export const legal: SiteContent['legal'] = {
  back: '← Volver al inicio',
  updated: 'Última actualización: 23 de noviembre de 2026',
  operator: 'Esta instalación de Charla la opera {name}. Contacto: {email}.',
  operatorUnset: 'El operador de esta instalación todavía no ha indicado su identidad.',
  tos: {
    title: 'Términos del servicio',
    description: 'Las condiciones para usar esta instalación de Charla.',
    sections: [
      {
        h: 'Quién presta el servicio',
        p: [
          'Charla es software de código abierto (AGPL-3.0). Quien opera esta instalación presta el servicio y responde de él; sus datos figuran arriba.',
        ],
      },
      {
        h: 'Tu cuenta',
        p: [
          'Eres responsable de tu cuenta, de lo que tu bot publica y de los archivos que subes. No uses el servicio para spam, engaños ni contenido ilegal.',
        ],
      },
      {
        h: 'Días de uso y pagos',
        p: [
          'El acceso se mide en días. Los pagos se procesan con Stripe; los días comprados se suman a los que te queden. El plan Mensual se renueva cada 30 días hasta que lo canceles.',
        ],
      },
      {
        h: 'Respuestas de la IA',
        p: [
          'Las respuestas las genera un modelo de lenguaje y pueden contener errores. Revisa las conversaciones y toma el control cuando haga falta.',
        ],
      },
      {
        h: 'Fin del servicio',
        p: [
          'Puedes dejar de usarlo cuando quieras. El operador puede suspender cuentas que incumplan estos términos.',
        ],
      },
    ],
  },
  privacy: {
    title: 'Política de privacidad',
    description: 'Qué datos guarda esta instalación de Charla y para qué.',
    sections: [
      {
        h: 'Datos de los dueños',
        p: [
          'Tu correo, la configuración de tu bot, tus archivos y tu historial de pagos, para prestarte el servicio.',
        ],
      },
      {
        h: 'Datos de los seguidores',
        p: [
          'Los mensajes que los seguidores envían a un bot y sus respuestas, con el identificador del canal. El dueño del bot puede leerlos para atender a sus seguidores.',
        ],
      },
      {
        h: 'Con quién se comparten',
        p: [
          'Con el proveedor del modelo de IA que configure el operador, para generar respuestas; con Telegram o WhatsApp, para entregar los mensajes; con Stripe, para los pagos. Nada se vende.',
        ],
      },
      {
        h: 'Cookies',
        p: [
          'Solo una cookie de sesión para mantenerte conectado. El sitio no usa cookies de publicidad ni de seguimiento.',
        ],
      },
      {
        h: 'Tus derechos',
        p: [
          'Puedes pedir al operador una copia de tus datos, corregirlos o borrarlos. Borrar una conversación la elimina del servidor.',
        ],
      },
    ],
  },
  security: {
    title: 'Seguridad y cumplimiento',
    description: 'Cómo protege Charla los datos y las credenciales.',
    sections: [
      {
        h: 'Credenciales cifradas',
        p: [
          'Los tokens de Telegram, las claves de WhatsApp y de Stripe se guardan cifrados (AES-256-GCM) y nunca se escriben en los registros.',
        ],
      },
      {
        h: 'Cada dueño ve lo suyo',
        p: [
          'Todas las rutas del panel comprueban la sesión y limitan los datos al dueño; las pruebas automáticas lo verifican ruta por ruta.',
        ],
      },
      {
        h: 'Webhooks firmados',
        p: [
          'Los avisos de Telegram, Meta y Stripe se verifican con su firma o su token secreto antes de procesarse.',
        ],
      },
      {
        h: 'Código abierto',
        p: [
          'Todo el código se puede auditar. Si encuentras una vulnerabilidad, escríbenos antes de publicarla y la corregiremos cuanto antes.',
        ],
      },
    ],
  },
};
