/** The marketing site in English (spec 001 §3, §9 Languages). */
import { legal } from './legal/en.ts';
import type { SiteContent } from './types.ts';

export const en = {
  locale: 'en_GB',
  name: 'English',
  meta: {
    title: 'Charla · Your AI chatbot on Telegram, WhatsApp and the web',
    description:
      'Build your business’s AI assistant in minutes: it answers, sends your files and takes bookings on Telegram, WhatsApp, your website and an IALanding. {trialDays} days free, no card.',
  },
  header: {
    pricing: 'Pricing',
    facebots: 'Facebots',
    cta: 'Create my channel',
    language: 'Language',
    skip: 'Skip to content',
  },
  banner: '🎁 {trialDays} days free, no card · Open source, on your own server',
  hero: {
    title: 'Your business, answered by an AI',
    highlight: 'on Telegram, WhatsApp and the web',
    subtitle:
      'Describe your business, upload your photos, menus and videos, and Charla answers your followers day and night in your style. You read every conversation and take over whenever you want.',
    login: 'Create my channel for free',
    directory: 'See Facebots',
    demo: 'Try an IALanding',
    ticks: ['Set up in under 5 minutes', 'No code', 'iALanding included'],
  },
  carousel: {
    label: 'Charla at work',
    slides: [
      'An artist shares her new album',
      'A clinic answers questions and books visits',
      'A restaurant takes bookings in the chat',
      'A company looks after its customers',
    ],
    video: 'Demo: a conversation with a Charla bot',
  },
  howItWorks: {
    title: 'How it works',
    steps: [
      {
        h: '1. Quick sign-up',
        p: ['Sign up with your e-mail or Google. You start with {trialDays} free days.'],
      },
      {
        h: '2. Configure the AI',
        p: ['Name, description, style and language. Add up to 10 files with their keywords.'],
      },
      {
        h: '3. Landing live',
        p: ['Connect Telegram or WhatsApp and publish your IALanding or the chat on your website.'],
      },
    ],
    cta: 'Start now',
  },
  ialanding: {
    title: 'IALanding: a page that talks',
    text: 'Every bot gets its own public page with a chat. Share it in your bio, on a QR code or in your ads: visitors ask and get answers, photos, PDFs, audio and video at once.',
    features: [
      'Its own address: /ialanding/your-business',
      'Looks good on a phone',
      'Shows your files when asked',
      'Link previews when shared',
    ],
    examples: [
      'A menu that answers about allergens',
      'A portfolio that shows works by theme',
      'A clinic that explains treatments',
    ],
    cta: 'Open the example IALanding',
  },
  facebots: {
    title: 'Facebots: the bot directory',
    text: 'List your bot in the directory so new followers find it, try it and like it.',
    chips: {
      all: 'All industries',
      health: 'Health',
      education: 'Education',
      entertainment: 'Entertainment',
    },
    filterLabel: 'Filter by industry',
    bots: [
      {
        name: 'Clínica Sonrisa',
        purpose: 'Answers questions and books appointments',
        language: 'Español',
        industry: 'health',
      },
      {
        name: 'Fisio en Casa',
        purpose: 'Exercises and follow-up after a session',
        language: 'Español',
        industry: 'health',
      },
      {
        name: 'Profe de Mates',
        purpose: 'Explains maths problems step by step',
        language: 'Español',
        industry: 'education',
      },
      {
        name: 'English Coach',
        purpose: 'Practise conversation in English',
        language: 'English',
        industry: 'education',
      },
      {
        name: 'Festival Luna',
        purpose: 'Festival times, tickets and map',
        language: 'Español',
        industry: 'entertainment',
      },
      {
        name: 'Banda Aurora',
        purpose: 'Songs, gigs and merchandise',
        language: 'Español',
        industry: 'entertainment',
      },
    ],
    cta: 'Explore Facebots',
    sample: 'Example',
  },
  useCases: {
    title: 'Who it is for',
    cases: [
      {
        title: 'Influencer',
        metric: 'Every message answered',
        quote:
          'Your followers ask the same thing a thousand times: the bot answers in your voice and sends your latest video.',
      },
      {
        title: 'Clinic',
        metric: 'Appointments around the clock',
        quote: 'Patients who ask for a visit at 11 pm get one, with a reminder two hours before.',
      },
      {
        title: 'Festival',
        metric: 'One channel for the whole crowd',
        quote: 'Times, map and last-minute changes sent to everyone in one message.',
      },
      {
        title: 'Coach',
        metric: 'Follow-up between sessions',
        quote: 'Clients get exercises and audio when they ask, and you read how they are doing.',
      },
      {
        title: 'Restaurant',
        metric: 'Bookings without calls',
        quote: 'The menu as a PDF, allergens and table booking, all inside the chat.',
      },
      {
        title: 'Hotel',
        metric: 'Answers in 7 languages',
        quote: 'Check-in, parking and tips in each guest’s language.',
      },
    ],
  },
  reservations: {
    title: 'Bookings inside the chat',
    text: 'Set your hours and slots; the bot offers free times, confirms the booking and never gives the same slot twice.',
    points: [
      'Hours per day and time zone',
      '30-minute, half-day or full-day slots',
      'See bookings, mark them paid or delete them',
      'Automatic reminders 24 h and 2 h before',
    ],
    reminder: '2h before',
    reminderText: '⏰ A reminder of your booking today at 18:00. See you soon!',
    cta: 'Turn on bookings',
  },
  pricing: {
    title: 'Clear prices, by the day',
    text: 'You pay for the days your bot is live. No lock-in.',
    trial: '{trialDays} days free when you sign up, no card',
    dayPass: {
      name: 'Day Pass',
      per: '/day',
      text: 'For events or campaigns: choose {minDays} to {maxDays} days.',
      points: ['Every feature', 'One card payment', 'No automatic renewal'],
    },
    monthly: {
      name: 'Monthly',
      badge: 'Most popular',
      per: '/month',
      text: '{days} days of use for every 30 billed: {perDay} a day.',
      points: [
        'Unlimited messages',
        'Priority support',
        'Updates included',
        'Renews every 30 days; cancel any time',
      ],
    },
    cta: 'Start free',
    note: 'Prices in euros, VAT included. Payments are handled by Stripe.',
  },
  comparison: {
    title: 'Charla compared with other platforms',
    text: 'Point by point, from each product’s public information.',
    feature: 'What we compare',
    rows: [
      {
        feature: 'Open source, on your server',
        charla: 'Yes (AGPL-3.0)',
        manychat: 'No',
        botpress: 'No (their cloud)',
        typebot: 'Yes',
      },
      {
        feature: 'Channels',
        charla: 'Telegram, WhatsApp, web, IALanding',
        manychat: 'Instagram, Messenger, WhatsApp, Telegram',
        botpress: 'Web, WhatsApp, Telegram and more',
        typebot: 'Web, WhatsApp',
      },
      {
        feature: 'How you pay',
        charla: 'By the day, from {dayPrice}',
        manychat: 'Monthly subscription',
        botpress: 'Subscription and usage',
        typebot: 'Subscription, or free on your server',
      },
      {
        feature: 'Bookings with reminders',
        charla: 'Included',
        manychat: 'Through integrations',
        botpress: 'Through integrations',
        typebot: 'Through integrations',
      },
      {
        feature: 'AI answers from your description',
        charla: 'Yes, no flows to design',
        manychat: 'Flows, optional AI',
        botpress: 'Agents to configure',
        typebot: 'Flows with AI blocks',
      },
      {
        feature: 'Voice notes',
        charla: 'Understands them and replies by voice',
        manychat: '—',
        botpress: '—',
        typebot: '—',
      },
    ],
    note: 'Compared from each product’s public documentation in November 2026. If something has changed, tell us and we will fix it.',
  },
  faq: {
    title: 'Frequently asked questions',
    items: [
      {
        q: 'Do I need to code?',
        a: 'No. You fill in a form with your business description, your style and your files, and the bot is ready.',
      },
      {
        q: 'How much does it cost?',
        a: 'The first {trialDays} days are free, no card. Then {dayPrice} a day with the Day Pass or {monthlyPrice} a month with the Monthly plan.',
      },
      {
        q: 'Which channels does it work on?',
        a: 'Telegram, WhatsApp (through Meta’s API or by linking your phone), a chat for your website and your own IALanding.',
      },
      {
        q: 'Can I answer instead of the bot?',
        a: 'Yes. You read every conversation, take over any of them and the bot pauses until you hand it back.',
      },
      {
        q: 'Which files can it send?',
        a: 'Up to 10 images, PDFs, audio or video files of up to 10 MB, each with its keywords and context.',
      },
      {
        q: 'Does it speak other languages?',
        a: 'Yes: Spanish, English, French, German, Italian, Russian and Hindi, and it answers in the language you choose for your bot.',
      },
      {
        q: 'Where is my data?',
        a: 'On the server where Charla is installed. It is open source: you can read it, host it yourself and take your data with you.',
      },
      {
        q: 'Can I cancel?',
        a: 'Yes, any time. The Monthly plan stops renewing and you keep the days you already paid for.',
      },
    ],
  },
  footer: {
    product: 'Product',
    legal: 'Legal',
    contact: 'Contact',
    tagline: 'Open-source AI chatbots for businesses.',
    links: {
      home: 'Home',
      directory: 'Facebots',
      pricing: 'Pricing',
      demo: 'Example IALanding',
      login: 'Sign in',
      source: 'Source code',
    },
    tos: 'Terms of service',
    privacy: 'Privacy',
    security: 'Security',
    contactText: 'Write to us at',
  },
  assistant: {
    open: 'Open the assistant',
    title: 'Asistente Charla',
    placeholder: 'Ask about Charla...',
    send: 'Send',
    minimise: 'Minimise',
    close: 'Close',
    greeting: 'Hi! 👋 I am Charla’s assistant. Ask me about prices, channels or bookings.',
    typing: 'Typing...',
    error: 'Sorry, I am having technical problems. Could you try again in a moment? 😅',
  },
  legal,
  bot: {
    example: 'Example bot',
    exampleText:
      'This is what a Charla bot could look like. Create yours in minutes and it will appear in Facebots.',
    responses: 'responses',
    likes: 'likes',
    like: 'Like',
    liked: 'Liked',
    share: 'Share',
    copied: 'Link copied',
    telegram: 'Open in Telegram',
    landing: 'Open IALanding',
    create: 'Create your own bot',
    back: '← Back to Facebots',
    language: 'Language',
    industry: 'Industry',
  },
  assistantStyle:
    'Answer in English, in a fun and professional tone. Use short numbered lists with one emoji per point. Be brief (under 120 words).',
} satisfies SiteContent;
