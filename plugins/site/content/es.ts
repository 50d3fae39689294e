/** The marketing site in Spanish, the default language and the source of the others (spec 001 §3). */
import { legal } from './legal/es.ts';
import type { SiteContent } from './types.ts';

export const es: SiteContent = {
  locale: 'es_ES',
  name: 'Español',
  meta: {
    title: 'Charla · Tu chatbot con IA en Telegram, WhatsApp y la web',
    description:
      'Crea el asistente con IA de tu negocio en minutos: responde, envía tus archivos y gestiona reservas en Telegram, WhatsApp, tu web y una IALanding. {trialDays} días gratis, sin tarjeta.',
  },
  header: {
    pricing: 'Precios',
    facebots: 'Facebots',
    cta: 'Crear mi canal',
    language: 'Idioma',
    skip: 'Saltar al contenido',
  },
  banner: '🎁 {trialDays} días gratis, sin tarjeta · Código abierto, en tu propio servidor',
  hero: {
    title: 'Tu negocio, atendido por una IA',
    highlight: 'en Telegram, WhatsApp y la web',
    subtitle:
      'Describe tu negocio, sube tus fotos, cartas y vídeos, y Charla responde a tus seguidores día y noche con tu estilo. Tú lees cada conversación y tomas el control cuando quieras.',
    login: 'Crear mi canal gratis',
    directory: 'Ver Facebots',
    demo: 'Probar una IALanding',
    ticks: ['Configuración en menos de 5 minutos', 'Sin escribir código', 'iALanding incluida'],
  },
  carousel: {
    label: 'Charla en acción',
    slides: [
      'Una artista comparte su nuevo disco',
      'Una clínica responde dudas y da citas',
      'Un restaurante cierra reservas en el chat',
      'Una empresa atiende a sus clientes',
    ],
    video: 'Demostración: una conversación con un bot de Charla',
  },
  howItWorks: {
    title: 'Cómo funciona',
    steps: [
      {
        h: '1. Registro rápido',
        p: ['Crea tu cuenta con tu correo o Google. Empiezas con {trialDays} días gratis.'],
      },
      {
        h: '2. Configura la IA',
        p: ['Nombre, descripción, estilo e idioma. Añade hasta 10 archivos con sus palabras clave.'],
      },
      {
        h: '3. Landing activa',
        p: ['Conecta Telegram o WhatsApp y publica tu IALanding o el chat en tu web.'],
      },
    ],
    cta: 'Empezar ahora',
  },
  ialanding: {
    title: 'IALanding: una página que conversa',
    text: 'Cada bot tiene su propia página pública con chat. Compártela en tu bio, en un QR o en tus anuncios: quien entra pregunta y recibe respuestas, fotos, PDF, audios y vídeos al momento.',
    features: [
      'Dirección propia: /ialanding/tu-negocio',
      'Se ve bien en el móvil',
      'Muestra tus archivos cuando se piden',
      'Vista previa al compartirla',
    ],
    examples: [
      'Un menú que responde por alergias',
      'Un portfolio que enseña obras por tema',
      'Una clínica que explica tratamientos',
    ],
    cta: 'Abrir la IALanding de ejemplo',
  },
  facebots: {
    title: 'Facebots: el directorio de bots',
    text: 'Publica tu bot en el directorio para que nuevos seguidores lo encuentren, lo prueben y le den me gusta.',
    chips: {
      all: 'Todas las industrias',
      health: 'Salud',
      education: 'Educación',
      entertainment: 'Entretenimiento',
    },
    filterLabel: 'Filtrar por industria',
    bots: [
      {
        name: 'Clínica Sonrisa',
        purpose: 'Resuelve dudas y reserva citas',
        language: 'Español',
        industry: 'health',
      },
      {
        name: 'Fisio en Casa',
        purpose: 'Ejercicios y seguimiento tras la sesión',
        language: 'Español',
        industry: 'health',
      },
      {
        name: 'Profe de Mates',
        purpose: 'Explica problemas paso a paso',
        language: 'Español',
        industry: 'education',
      },
      {
        name: 'English Coach',
        purpose: 'Practica conversación en inglés',
        language: 'English',
        industry: 'education',
      },
      {
        name: 'Festival Luna',
        purpose: 'Horarios, entradas y mapa del festival',
        language: 'Español',
        industry: 'entertainment',
      },
      {
        name: 'Banda Aurora',
        purpose: 'Canciones, conciertos y merchandising',
        language: 'Español',
        industry: 'entertainment',
      },
    ],
    cta: 'Explorar Facebots',
    sample: 'Ejemplo',
  },
  useCases: {
    title: 'Para quién es',
    cases: [
      {
        title: 'Influencer',
        metric: 'Responde a cada mensaje',
        quote:
          'Tus seguidores preguntan lo mismo mil veces: el bot responde con tu tono y envía tu último vídeo.',
      },
      {
        title: 'Clínica',
        metric: 'Citas las 24 horas',
        quote: 'Pacientes que piden cita a las 23:00 la consiguen, con recordatorio dos horas antes.',
      },
      {
        title: 'Festival',
        metric: 'Un canal para todo el público',
        quote: 'Horarios, mapa y cambios de última hora enviados a todos con un solo mensaje.',
      },
      {
        title: 'Coach',
        metric: 'Seguimiento entre sesiones',
        quote: 'Tus clientes reciben ejercicios y audios cuando los piden, y tú lees cómo van.',
      },
      {
        title: 'Restaurante',
        metric: 'Reservas sin llamadas',
        quote: 'La carta en PDF, los alérgenos y la reserva de mesa, dentro del chat.',
      },
      {
        title: 'Hotel',
        metric: 'Respuestas en 7 idiomas',
        quote: 'Check-in, parking y recomendaciones en el idioma de cada huésped.',
      },
    ],
  },
  reservations: {
    title: 'Reservas dentro del chat',
    text: 'Define tu horario y tus huecos; el bot ofrece las horas libres, confirma la reserva y nunca da el mismo hueco dos veces.',
    points: [
      'Horarios por día y zona horaria',
      'Huecos de 30 minutos, de mañana o de día completo',
      'Tú ves, marcas como abonadas o borras las reservas',
      'Recordatorios automáticos 24 h y 2 h antes',
    ],
    reminder: '2h antes',
    reminderText: '⏰ Te recordamos tu reserva de hoy a las 18:00. ¡Te esperamos!',
    cta: 'Activar reservas',
  },
  pricing: {
    title: 'Precios claros, por días',
    text: 'Pagas por los días que tu bot está activo. Sin permanencia.',
    trial: '{trialDays} días gratis al registrarte, sin tarjeta',
    dayPass: {
      name: 'Day Pass',
      per: '/día',
      text: 'Para eventos o campañas: elige de {minDays} a {maxDays} días.',
      points: ['Todas las funciones', 'Pago único con tarjeta', 'Sin renovación automática'],
    },
    monthly: {
      name: 'Mensual',
      badge: 'Más popular',
      per: '/mes',
      text: '{days} días de uso por cada 30 de facturación: {perDay} al día.',
      points: [
        'Mensajes ilimitados',
        'Soporte prioritario',
        'Actualizaciones incluidas',
        'Se renueva cada 30 días; cancela cuando quieras',
      ],
    },
    cta: 'Empezar gratis',
    note: 'Precios con IVA incluido, en euros. El pago se hace con Stripe.',
  },
  comparison: {
    title: 'Charla frente a otras plataformas',
    text: 'Punto por punto, con la información pública de cada producto.',
    feature: 'Qué comparamos',
    rows: [
      {
        feature: 'Código abierto, en tu servidor',
        charla: 'Sí (AGPL-3.0)',
        manychat: 'No',
        botpress: 'No (su nube)',
        typebot: 'Sí',
      },
      {
        feature: 'Canales',
        charla: 'Telegram, WhatsApp, web, IALanding',
        manychat: 'Instagram, Messenger, WhatsApp, Telegram',
        botpress: 'Web, WhatsApp, Telegram y más',
        typebot: 'Web, WhatsApp',
      },
      {
        feature: 'Cómo se paga',
        charla: 'Por días, desde {dayPrice}',
        manychat: 'Suscripción mensual',
        botpress: 'Suscripción y uso',
        typebot: 'Suscripción o gratis en tu servidor',
      },
      {
        feature: 'Reservas con recordatorios',
        charla: 'Incluidas',
        manychat: 'Con integraciones',
        botpress: 'Con integraciones',
        typebot: 'Con integraciones',
      },
      {
        feature: 'Respuestas con IA desde tu descripción',
        charla: 'Sí, sin diseñar flujos',
        manychat: 'Flujos con IA opcional',
        botpress: 'Agentes que configurar',
        typebot: 'Flujos con bloques de IA',
      },
      {
        feature: 'Notas de voz',
        charla: 'Las entiende y responde con voz',
        manychat: '—',
        botpress: '—',
        typebot: '—',
      },
    ],
    note: 'Comparación hecha con la documentación pública de cada producto en noviembre de 2026. Si algo ha cambiado, dínoslo y lo corregimos.',
  },
  faq: {
    title: 'Preguntas frecuentes',
    items: [
      {
        q: '¿Necesito saber programar?',
        a: 'No. Rellenas un formulario con la descripción de tu negocio, tu estilo y tus archivos, y el bot está listo.',
      },
      {
        q: '¿Cuánto cuesta?',
        a: 'Los primeros {trialDays} días son gratis y sin tarjeta. Después, {dayPrice} al día con el Day Pass o {monthlyPrice} al mes con el plan Mensual.',
      },
      {
        q: '¿En qué canales funciona?',
        a: 'Telegram, WhatsApp (con la API de Meta o vinculando tu teléfono), un chat para tu web y una IALanding propia.',
      },
      {
        q: '¿Puedo responder yo en lugar del bot?',
        a: 'Sí. Lees todas las conversaciones, tomas el control de cualquiera y el bot se pausa hasta que se lo devuelves.',
      },
      {
        q: '¿Qué archivos puede enviar?',
        a: 'Hasta 10 imágenes, PDF, audios o vídeos de 10 MB como máximo, cada uno con sus palabras clave y su contexto.',
      },
      {
        q: '¿Habla otros idiomas?',
        a: 'Sí: español, inglés, francés, alemán, italiano, ruso e hindi, y responde en el idioma que elijas para tu bot.',
      },
      {
        q: '¿Dónde están mis datos?',
        a: 'En el servidor donde instales Charla. Es código abierto: puedes revisarlo, alojarlo tú y llevarte tus datos.',
      },
      {
        q: '¿Puedo cancelar?',
        a: 'Sí, cuando quieras. El plan Mensual deja de renovarse y conservas los días que ya pagaste.',
      },
    ],
  },
  footer: {
    product: 'Producto',
    legal: 'Legal',
    contact: 'Contacto',
    tagline: 'Chatbots con IA para negocios, de código abierto.',
    links: {
      home: 'Inicio',
      directory: 'Facebots',
      pricing: 'Precios',
      demo: 'IALanding de ejemplo',
      login: 'Entrar',
      source: 'Código fuente',
    },
    tos: 'Términos del servicio',
    privacy: 'Privacidad',
    security: 'Seguridad',
    contactText: 'Escríbenos a',
  },
  assistant: {
    open: 'Abrir el asistente',
    title: 'Asistente Charla',
    placeholder: 'Pregunta sobre Charla...',
    send: 'Enviar',
    minimise: 'Minimizar',
    close: 'Cerrar',
    greeting: '¡Hola! 👋 Soy el asistente de Charla. Pregúntame por precios, canales o reservas.',
    typing: 'Escribiendo...',
    error: 'Lo siento, estoy teniendo problemas técnicos. ¿Puedes intentar de nuevo en un momento? 😅',
  },
  legal,
  bot: {
    example: 'Bot de ejemplo',
    exampleText: 'Así podría ser un bot de Charla. Crea el tuyo en minutos y aparecerá en Facebots.',
    responses: 'respuestas',
    likes: 'me gusta',
    like: 'Me gusta',
    liked: 'Te gusta',
    share: 'Compartir',
    copied: 'Enlace copiado',
    telegram: 'Abrir en Telegram',
    landing: 'Abrir IALanding',
    create: 'Crea tu propio bot',
    back: '← Volver a Facebots',
    language: 'Idioma',
    industry: 'Industria',
  },
  assistantStyle:
    'Responde en español, con un tono divertido y profesional. Usa listas numeradas cortas con un emoji por punto. Sé breve (menos de 120 palabras).',
};
