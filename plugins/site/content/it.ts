/** The marketing site in Italian (spec 001 §3, §9 Languages). */
import { legal } from './legal/it.ts';
import type { SiteContent } from './types.ts';

export const it = {
  locale: 'it_IT',
  name: 'Italiano',
  meta: {
    title: 'Charla · Il tuo chatbot IA su Telegram, WhatsApp e il web',
    description:
      'Crea in pochi minuti l’assistente IA della tua attività: risponde, invia i tuoi file e prende prenotazioni su Telegram, WhatsApp, il tuo sito e una IALanding. {trialDays} giorni gratis, senza carta.',
  },
  header: {
    pricing: 'Prezzi',
    facebots: 'Facebots',
    cta: 'Crea il mio canale',
    language: 'Lingua',
    skip: 'Vai al contenuto',
  },
  banner: '🎁 {trialDays} giorni gratis, senza carta · Open source, sul tuo server',
  hero: {
    title: 'La tua attività, seguita da un’IA',
    highlight: 'su Telegram, WhatsApp e il web',
    subtitle:
      'Descrivi la tua attività, carica foto, menù e video, e Charla risponde ai tuoi follower giorno e notte con il tuo stile. Tu leggi ogni conversazione e prendi il controllo quando vuoi.',
    login: 'Crea il mio canale gratis',
    directory: 'Vedi Facebots',
    demo: 'Prova una IALanding',
    ticks: ['Configurazione in meno di 5 minuti', 'Senza codice', 'iALanding inclusa'],
  },
  carousel: {
    label: 'Charla all’opera',
    slides: [
      'Un’artista presenta il nuovo album',
      'Una clinica risponde e fissa appuntamenti',
      'Un ristorante prende prenotazioni in chat',
      'Un’azienda assiste i suoi clienti',
    ],
    video: 'Demo: una conversazione con un bot di Charla',
  },
  howItWorks: {
    title: 'Come funziona',
    steps: [
      {
        h: '1. Registrazione rapida',
        p: ['Registrati con la tua e-mail o con Google. Parti con {trialDays} giorni gratis.'],
      },
      {
        h: '2. Configura l’IA',
        p: ['Nome, descrizione, stile e lingua. Aggiungi fino a 10 file con le loro parole chiave.'],
      },
      {
        h: '3. Landing attiva',
        p: ['Collega Telegram o WhatsApp e pubblica la tua IALanding o la chat sul tuo sito.'],
      },
    ],
    cta: 'Inizia ora',
  },
  ialanding: {
    title: 'IALanding: una pagina che conversa',
    text: 'Ogni bot ha la sua pagina pubblica con chat. Condividila nella bio, in un QR o nei tuoi annunci: chi entra chiede e riceve subito risposte, foto, PDF, audio e video.',
    features: [
      'Indirizzo proprio: /ialanding/la-tua-attivita',
      'Perfetta sul telefono',
      'Mostra i tuoi file quando servono',
      'Anteprima del link quando la condividi',
    ],
    examples: [
      'Un menù che risponde sugli allergeni',
      'Un portfolio che mostra le opere per tema',
      'Una clinica che spiega i trattamenti',
    ],
    cta: 'Apri la IALanding di esempio',
  },
  facebots: {
    title: 'Facebots: la directory dei bot',
    text: 'Pubblica il tuo bot nella directory: nuovi follower lo trovano, lo provano e mettono mi piace.',
    chips: {
      all: 'Tutti i settori',
      health: 'Salute',
      education: 'Istruzione',
      entertainment: 'Intrattenimento',
    },
    filterLabel: 'Filtra per settore',
    bots: [
      {
        name: 'Clínica Sonrisa',
        purpose: 'Risponde ai dubbi e fissa appuntamenti',
        language: 'Español',
        industry: 'health',
      },
      {
        name: 'Fisio en Casa',
        purpose: 'Esercizi e follow-up dopo la seduta',
        language: 'Español',
        industry: 'health',
      },
      {
        name: 'Profe de Mates',
        purpose: 'Spiega i problemi passo per passo',
        language: 'Español',
        industry: 'education',
      },
      {
        name: 'English Coach',
        purpose: 'Fai pratica di conversazione in inglese',
        language: 'English',
        industry: 'education',
      },
      {
        name: 'Festival Luna',
        purpose: 'Orari, biglietti e mappa del festival',
        language: 'Español',
        industry: 'entertainment',
      },
      {
        name: 'Banda Aurora',
        purpose: 'Canzoni, concerti e merchandising',
        language: 'Español',
        industry: 'entertainment',
      },
    ],
    cta: 'Esplora Facebots',
    sample: 'Esempio',
  },
  useCases: {
    title: 'Per chi è',
    cases: [
      {
        title: 'Influencer',
        metric: 'Ogni messaggio ha risposta',
        quote:
          'I follower chiedono mille volte la stessa cosa: il bot risponde con il tuo tono e invia il tuo ultimo video.',
      },
      {
        title: 'Clinica',
        metric: 'Appuntamenti 24 ore su 24',
        quote: 'Chi chiede un appuntamento alle 23 lo ottiene, con promemoria due ore prima.',
      },
      {
        title: 'Festival',
        metric: 'Un canale per tutto il pubblico',
        quote: 'Orari, mappa e cambi dell’ultimo minuto a tutti con un solo messaggio.',
      },
      {
        title: 'Coach',
        metric: 'Follow-up tra le sessioni',
        quote: 'I clienti ricevono esercizi e audio quando li chiedono, e tu vedi come procedono.',
      },
      {
        title: 'Ristorante',
        metric: 'Prenotazioni senza telefonate',
        quote: 'Il menù in PDF, gli allergeni e la prenotazione del tavolo, tutto in chat.',
      },
      {
        title: 'Hotel',
        metric: 'Risposte in 7 lingue',
        quote: 'Check-in, parcheggio e consigli nella lingua di ogni ospite.',
      },
    ],
  },
  reservations: {
    title: 'Prenotazioni dentro la chat',
    text: 'Definisci orari e fasce; il bot offre le ore libere, conferma la prenotazione e non assegna mai due volte la stessa fascia.',
    points: [
      'Orari per giorno e fuso orario',
      'Fasce di 30 minuti, mezza giornata o giornata intera',
      'Vedi, segna come pagate o elimina le prenotazioni',
      'Promemoria automatici 24 h e 2 h prima',
    ],
    reminder: '2h prima',
    reminderText: '⏰ Ti ricordiamo la prenotazione di oggi alle 18:00. A presto!',
    cta: 'Attiva le prenotazioni',
  },
  pricing: {
    title: 'Prezzi chiari, a giorni',
    text: 'Paghi i giorni in cui il tuo bot è attivo. Senza vincoli.',
    trial: '{trialDays} giorni gratis all’iscrizione, senza carta',
    dayPass: {
      name: 'Day Pass',
      per: '/giorno',
      text: 'Per eventi o campagne: da {minDays} a {maxDays} giorni.',
      points: ['Tutte le funzioni', 'Pagamento unico con carta', 'Nessun rinnovo automatico'],
    },
    monthly: {
      name: 'Mensile',
      badge: 'Il più scelto',
      per: '/mese',
      text: '{days} giorni di uso ogni 30 fatturati: {perDay} al giorno.',
      points: [
        'Messaggi illimitati',
        'Supporto prioritario',
        'Aggiornamenti inclusi',
        'Si rinnova ogni 30 giorni; disdici quando vuoi',
      ],
    },
    cta: 'Inizia gratis',
    note: 'Prezzi in euro, IVA inclusa. Pagamenti gestiti da Stripe.',
  },
  comparison: {
    title: 'Charla a confronto',
    text: 'Punto per punto, dalle informazioni pubbliche di ogni prodotto.',
    feature: 'Cosa confrontiamo',
    rows: [
      {
        feature: 'Open source, sul tuo server',
        charla: 'Sì (AGPL-3.0)',
        manychat: 'No',
        botpress: 'No (il loro cloud)',
        typebot: 'Sì',
      },
      {
        feature: 'Canali',
        charla: 'Telegram, WhatsApp, web, IALanding',
        manychat: 'Instagram, Messenger, WhatsApp, Telegram',
        botpress: 'Web, WhatsApp, Telegram e altri',
        typebot: 'Web, WhatsApp',
      },
      {
        feature: 'Come si paga',
        charla: 'A giorni, da {dayPrice}',
        manychat: 'Abbonamento mensile',
        botpress: 'Abbonamento e consumo',
        typebot: 'Abbonamento, o gratis sul tuo server',
      },
      {
        feature: 'Prenotazioni con promemoria',
        charla: 'Incluse',
        manychat: 'Con integrazioni',
        botpress: 'Con integrazioni',
        typebot: 'Con integrazioni',
      },
      {
        feature: 'Risposte IA dalla tua descrizione',
        charla: 'Sì, senza disegnare flussi',
        manychat: 'Flussi, IA opzionale',
        botpress: 'Agenti da configurare',
        typebot: 'Flussi con blocchi IA',
      },
      {
        feature: 'Note vocali',
        charla: 'Le capisce e risponde a voce',
        manychat: '—',
        botpress: '—',
        typebot: '—',
      },
    ],
    note: 'Confronto fatto sulla documentazione pubblica di ogni prodotto a novembre 2026. Se qualcosa è cambiato, diccelo e correggiamo.',
  },
  faq: {
    title: 'Domande frequenti',
    items: [
      {
        q: 'Devo saper programmare?',
        a: 'No. Compili un modulo con la descrizione della tua attività, il tuo stile e i tuoi file, e il bot è pronto.',
      },
      {
        q: 'Quanto costa?',
        a: 'I primi {trialDays} giorni sono gratis, senza carta. Poi {dayPrice} al giorno con il Day Pass o {monthlyPrice} al mese con il piano Mensile.',
      },
      {
        q: 'Su quali canali funziona?',
        a: 'Telegram, WhatsApp (con l’API di Meta o collegando il tuo telefono), una chat per il tuo sito e la tua IALanding.',
      },
      {
        q: 'Posso rispondere io al posto del bot?',
        a: 'Sì. Leggi tutte le conversazioni, prendi il controllo di qualsiasi e il bot si mette in pausa finché non glielo restituisci.',
      },
      {
        q: 'Quali file può inviare?',
        a: 'Fino a 10 immagini, PDF, audio o video di massimo 10 MB, ognuno con parole chiave e contesto.',
      },
      {
        q: 'Parla altre lingue?',
        a: 'Sì: spagnolo, inglese, francese, tedesco, italiano, russo e hindi, e risponde nella lingua scelta per il tuo bot.',
      },
      {
        q: 'Dove sono i miei dati?',
        a: 'Sul server dove è installato Charla. È open source: puoi leggerlo, ospitarlo tu e portare via i tuoi dati.',
      },
      {
        q: 'Posso disdire?',
        a: 'Sì, quando vuoi. Il piano Mensile smette di rinnovarsi e conservi i giorni già pagati.',
      },
    ],
  },
  footer: {
    product: 'Prodotto',
    legal: 'Note legali',
    contact: 'Contatti',
    tagline: 'Chatbot IA open source per le attività.',
    links: {
      home: 'Home',
      directory: 'Facebots',
      pricing: 'Prezzi',
      demo: 'IALanding di esempio',
      login: 'Accedi',
      source: 'Codice sorgente',
    },
    tos: 'Termini del servizio',
    privacy: 'Privacy',
    security: 'Sicurezza',
    contactText: 'Scrivici a',
  },
  assistant: {
    open: 'Apri l’assistente',
    title: 'Asistente Charla',
    placeholder: 'Chiedi di Charla...',
    send: 'Invia',
    minimise: 'Riduci',
    close: 'Chiudi',
    greeting: 'Ciao! 👋 Sono l’assistente di Charla. Chiedimi di prezzi, canali o prenotazioni.',
    typing: 'Sta scrivendo...',
    error: 'Mi dispiace, ho dei problemi tecnici. Puoi riprovare tra un momento? 😅',
  },
  legal,
  bot: {
    example: 'Bot di esempio',
    exampleText:
      'Ecco come potrebbe essere un bot di Charla. Crea il tuo in pochi minuti e apparirà in Facebots.',
    responses: 'risposte',
    likes: 'mi piace',
    like: 'Mi piace',
    liked: 'Ti piace',
    share: 'Condividi',
    copied: 'Link copiato',
    telegram: 'Apri in Telegram',
    landing: 'Apri IALanding',
    create: 'Crea il tuo bot',
    back: '← Torna a Facebots',
    language: 'Lingua',
    industry: 'Settore',
  },
  assistantStyle:
    'Rispondi in italiano, con tono divertente e professionale. Usa brevi elenchi numerati con un emoji per punto. Sii breve (meno di 120 parole).',
} satisfies SiteContent;
