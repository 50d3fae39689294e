/** The marketing site in German (spec 001 §3, §9 Languages). */
import { legal } from './legal/de.ts';
import type { SiteContent } from './types.ts';

export const de = {
  locale: 'de_DE',
  name: 'Deutsch',
  meta: {
    title: 'Charla · Ihr KI-Chatbot auf Telegram, WhatsApp und im Web',
    description:
      'Erstellen Sie in Minuten den KI-Assistenten Ihres Unternehmens: Er antwortet, schickt Ihre Dateien und nimmt Reservierungen an – auf Telegram, WhatsApp, Ihrer Website und einer IALanding. {trialDays} Tage gratis, ohne Karte.',
  },
  header: {
    pricing: 'Preise',
    facebots: 'Facebots',
    cta: 'Meinen Kanal erstellen',
    language: 'Sprache',
    skip: 'Zum Inhalt springen',
  },
  banner: '🎁 {trialDays} Tage gratis, ohne Karte · Open Source, auf Ihrem eigenen Server',
  hero: {
    title: 'Ihr Geschäft, betreut von einer KI',
    highlight: 'auf Telegram, WhatsApp und im Web',
    subtitle:
      'Beschreiben Sie Ihr Geschäft, laden Sie Fotos, Speisekarten und Videos hoch, und Charla antwortet Ihren Followern Tag und Nacht in Ihrem Stil. Sie lesen jedes Gespräch und übernehmen, wann Sie wollen.',
    login: 'Kanal kostenlos erstellen',
    directory: 'Facebots ansehen',
    demo: 'Eine IALanding testen',
    ticks: ['Eingerichtet in unter 5 Minuten', 'Ohne Code', 'iALanding inklusive'],
  },
  carousel: {
    label: 'Charla im Einsatz',
    slides: [
      'Eine Künstlerin stellt ihr neues Album vor',
      'Eine Klinik beantwortet Fragen und vergibt Termine',
      'Ein Restaurant nimmt Reservierungen im Chat an',
      'Ein Unternehmen betreut seine Kunden',
    ],
    video: 'Demo: ein Gespräch mit einem Charla-Bot',
  },
  howItWorks: {
    title: 'So funktioniert es',
    steps: [
      {
        h: '1. Schnelle Anmeldung',
        p: ['Melden Sie sich mit E-Mail oder Google an. Sie starten mit {trialDays} Gratistagen.'],
      },
      {
        h: '2. KI einrichten',
        p: ['Name, Beschreibung, Stil und Sprache. Fügen Sie bis zu 10 Dateien mit Stichwörtern hinzu.'],
      },
      {
        h: '3. Landing aktiv',
        p: [
          'Verbinden Sie Telegram oder WhatsApp und veröffentlichen Sie Ihre IALanding oder den Chat auf Ihrer Website.',
        ],
      },
    ],
    cta: 'Jetzt starten',
  },
  ialanding: {
    title: 'IALanding: eine Seite, die spricht',
    text: 'Jeder Bot hat eine eigene öffentliche Seite mit Chat. Teilen Sie sie in Ihrer Bio, per QR-Code oder in Anzeigen: Besucher fragen und bekommen sofort Antworten, Fotos, PDFs, Audios und Videos.',
    features: [
      'Eigene Adresse: /ialanding/ihr-geschaeft',
      'Optimiert fürs Handy',
      'Zeigt Ihre Dateien auf Nachfrage',
      'Linkvorschau beim Teilen',
    ],
    examples: [
      'Eine Speisekarte, die Allergene erklärt',
      'Ein Portfolio, das Werke nach Thema zeigt',
      'Eine Klinik, die Behandlungen erklärt',
    ],
    cta: 'Beispiel-IALanding öffnen',
  },
  facebots: {
    title: 'Facebots: das Bot-Verzeichnis',
    text: 'Listen Sie Ihren Bot im Verzeichnis, damit neue Follower ihn finden, ausprobieren und liken.',
    chips: {
      all: 'Alle Branchen',
      health: 'Gesundheit',
      education: 'Bildung',
      entertainment: 'Unterhaltung',
    },
    filterLabel: 'Nach Branche filtern',
    bots: [
      {
        name: 'Clínica Sonrisa',
        purpose: 'Beantwortet Fragen und vergibt Termine',
        language: 'Español',
        industry: 'health',
      },
      {
        name: 'Fisio en Casa',
        purpose: 'Übungen und Nachbetreuung nach der Sitzung',
        language: 'Español',
        industry: 'health',
      },
      {
        name: 'Profe de Mates',
        purpose: 'Erklärt Matheaufgaben Schritt für Schritt',
        language: 'Español',
        industry: 'education',
      },
      {
        name: 'English Coach',
        purpose: 'Englisch sprechen üben',
        language: 'English',
        industry: 'education',
      },
      {
        name: 'Festival Luna',
        purpose: 'Zeiten, Tickets und Lageplan des Festivals',
        language: 'Español',
        industry: 'entertainment',
      },
      {
        name: 'Banda Aurora',
        purpose: 'Songs, Konzerte und Merch',
        language: 'Español',
        industry: 'entertainment',
      },
    ],
    cta: 'Facebots entdecken',
    sample: 'Beispiel',
  },
  useCases: {
    title: 'Für wen',
    cases: [
      {
        title: 'Influencer',
        metric: 'Jede Nachricht beantwortet',
        quote:
          'Ihre Follower fragen tausendmal dasselbe: Der Bot antwortet in Ihrem Ton und schickt Ihr neuestes Video.',
      },
      {
        title: 'Klinik',
        metric: 'Termine rund um die Uhr',
        quote: 'Wer um 23 Uhr einen Termin möchte, bekommt ihn – mit Erinnerung zwei Stunden vorher.',
      },
      {
        title: 'Festival',
        metric: 'Ein Kanal für das ganze Publikum',
        quote: 'Zeiten, Lageplan und kurzfristige Änderungen mit einer Nachricht an alle.',
      },
      {
        title: 'Coach',
        metric: 'Begleitung zwischen den Sitzungen',
        quote: 'Ihre Kunden bekommen Übungen und Audios, wenn sie fragen, und Sie sehen, wie es läuft.',
      },
      {
        title: 'Restaurant',
        metric: 'Reservierungen ohne Anrufe',
        quote: 'Die Karte als PDF, Allergene und Tischreservierung, alles im Chat.',
      },
      {
        title: 'Hotel',
        metric: 'Antworten in 7 Sprachen',
        quote: 'Check-in, Parken und Tipps in der Sprache jedes Gastes.',
      },
    ],
  },
  reservations: {
    title: 'Reservierungen im Chat',
    text: 'Legen Sie Zeiten und Slots fest; der Bot bietet freie Zeiten an, bestätigt die Reservierung und vergibt nie denselben Slot doppelt.',
    points: [
      'Zeiten pro Tag und Zeitzone',
      'Slots von 30 Minuten, halbtags oder ganztags',
      'Reservierungen sehen, als bezahlt markieren oder löschen',
      'Automatische Erinnerungen 24 h und 2 h vorher',
    ],
    reminder: '2 Std. vorher',
    reminderText: '⏰ Erinnerung an Ihre Reservierung heute um 18:00. Bis gleich!',
    cta: 'Reservierungen aktivieren',
  },
  pricing: {
    title: 'Klare Preise, pro Tag',
    text: 'Sie zahlen für die Tage, an denen Ihr Bot aktiv ist. Ohne Vertragsbindung.',
    trial: '{trialDays} Tage gratis bei der Anmeldung, ohne Karte',
    dayPass: {
      name: 'Day Pass',
      per: '/Tag',
      text: 'Für Events oder Kampagnen: {minDays} bis {maxDays} Tage wählen.',
      points: ['Alle Funktionen', 'Einmalzahlung per Karte', 'Keine automatische Verlängerung'],
    },
    monthly: {
      name: 'Monatlich',
      badge: 'Am beliebtesten',
      per: '/Monat',
      text: '{days} Nutzungstage pro 30 berechneten: {perDay} pro Tag.',
      points: [
        'Unbegrenzte Nachrichten',
        'Priorisierter Support',
        'Updates inklusive',
        'Verlängert sich alle 30 Tage; jederzeit kündbar',
      ],
    },
    cta: 'Gratis starten',
    note: 'Preise in Euro inkl. MwSt. Zahlungen über Stripe.',
  },
  comparison: {
    title: 'Charla im Vergleich',
    text: 'Punkt für Punkt, nach den öffentlichen Angaben jedes Produkts.',
    feature: 'Was wir vergleichen',
    rows: [
      {
        feature: 'Open Source, auf Ihrem Server',
        charla: 'Ja (AGPL-3.0)',
        manychat: 'Nein',
        botpress: 'Nein (deren Cloud)',
        typebot: 'Ja',
      },
      {
        feature: 'Kanäle',
        charla: 'Telegram, WhatsApp, Web, IALanding',
        manychat: 'Instagram, Messenger, WhatsApp, Telegram',
        botpress: 'Web, WhatsApp, Telegram und mehr',
        typebot: 'Web, WhatsApp',
      },
      {
        feature: 'Bezahlung',
        charla: 'Pro Tag, ab {dayPrice}',
        manychat: 'Monatsabo',
        botpress: 'Abo und Nutzung',
        typebot: 'Abo, oder gratis auf Ihrem Server',
      },
      {
        feature: 'Reservierungen mit Erinnerungen',
        charla: 'Inklusive',
        manychat: 'Über Integrationen',
        botpress: 'Über Integrationen',
        typebot: 'Über Integrationen',
      },
      {
        feature: 'KI-Antworten aus Ihrer Beschreibung',
        charla: 'Ja, ohne Flows zu bauen',
        manychat: 'Flows, KI optional',
        botpress: 'Agenten zum Konfigurieren',
        typebot: 'Flows mit KI-Blöcken',
      },
      {
        feature: 'Sprachnachrichten',
        charla: 'Versteht sie und antwortet per Sprache',
        manychat: '—',
        botpress: '—',
        typebot: '—',
      },
    ],
    note: 'Verglichen anhand der öffentlichen Dokumentation jedes Produkts im November 2026. Hat sich etwas geändert? Sagen Sie es uns, wir korrigieren es.',
  },
  faq: {
    title: 'Häufige Fragen',
    items: [
      {
        q: 'Muss ich programmieren können?',
        a: 'Nein. Sie füllen ein Formular mit Beschreibung, Stil und Dateien aus, und der Bot ist bereit.',
      },
      {
        q: 'Was kostet es?',
        a: 'Die ersten {trialDays} Tage sind gratis, ohne Karte. Danach {dayPrice} pro Tag mit dem Day Pass oder {monthlyPrice} im Monat mit dem Monatsplan.',
      },
      {
        q: 'Auf welchen Kanälen?',
        a: 'Telegram, WhatsApp (über die Meta-API oder durch Verknüpfen Ihres Handys), ein Chat für Ihre Website und Ihre eigene IALanding.',
      },
      {
        q: 'Kann ich selbst statt des Bots antworten?',
        a: 'Ja. Sie lesen alle Gespräche, übernehmen jedes davon, und der Bot pausiert, bis Sie es zurückgeben.',
      },
      {
        q: 'Welche Dateien kann er senden?',
        a: 'Bis zu 10 Bilder, PDFs, Audios oder Videos mit je höchstens 10 MB, jeweils mit Stichwörtern und Kontext.',
      },
      {
        q: 'Spricht er andere Sprachen?',
        a: 'Ja: Spanisch, Englisch, Französisch, Deutsch, Italienisch, Russisch und Hindi; er antwortet in der Sprache, die Sie für Ihren Bot wählen.',
      },
      {
        q: 'Wo liegen meine Daten?',
        a: 'Auf dem Server, auf dem Charla installiert ist. Es ist Open Source: Sie können es prüfen, selbst hosten und Ihre Daten mitnehmen.',
      },
      {
        q: 'Kann ich kündigen?',
        a: 'Ja, jederzeit. Der Monatsplan verlängert sich nicht mehr, und bezahlte Tage bleiben Ihnen.',
      },
    ],
  },
  footer: {
    product: 'Produkt',
    legal: 'Rechtliches',
    contact: 'Kontakt',
    tagline: 'Open-Source-KI-Chatbots für Unternehmen.',
    links: {
      home: 'Startseite',
      directory: 'Facebots',
      pricing: 'Preise',
      demo: 'Beispiel-IALanding',
      login: 'Anmelden',
      source: 'Quellcode',
    },
    tos: 'Nutzungsbedingungen',
    privacy: 'Datenschutz',
    security: 'Sicherheit',
    contactText: 'Schreiben Sie uns an',
  },
  assistant: {
    open: 'Assistent öffnen',
    title: 'Asistente Charla',
    placeholder: 'Frage zu Charla...',
    send: 'Senden',
    minimise: 'Minimieren',
    close: 'Schließen',
    greeting:
      'Hallo! 👋 Ich bin der Assistent von Charla. Fragen Sie mich nach Preisen, Kanälen oder Reservierungen.',
    typing: 'Schreibt...',
    error: 'Entschuldigung, ich habe technische Probleme. Können Sie es gleich noch einmal versuchen? 😅',
  },
  legal,
  bot: {
    example: 'Beispiel-Bot',
    exampleText:
      'So könnte ein Charla-Bot aussehen. Erstellen Sie Ihren in Minuten, dann erscheint er in Facebots.',
    responses: 'Antworten',
    likes: 'Likes',
    like: 'Gefällt mir',
    liked: 'Gefällt dir',
    share: 'Teilen',
    copied: 'Link kopiert',
    telegram: 'In Telegram öffnen',
    landing: 'IALanding öffnen',
    create: 'Eigenen Bot erstellen',
    back: '← Zurück zu Facebots',
    language: 'Sprache',
    industry: 'Branche',
  },
  assistantStyle:
    'Antworte auf Deutsch, lustig und professionell. Verwende kurze nummerierte Listen mit einem Emoji pro Punkt. Fasse dich kurz (unter 120 Wörtern).',
} satisfies SiteContent;
