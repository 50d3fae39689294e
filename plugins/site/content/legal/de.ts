/** The site's legal pages (terms of service, privacy, security) in German, kept apart from the marketing pages' words. */
import type { SiteContent } from '../types.ts';

export const legal: SiteContent['legal'] = {
  back: '← Zurück zur Startseite',
  updated: 'Zuletzt aktualisiert: 23. November 2026',
  operator: 'Diese Charla-Installation wird betrieben von {name}. Kontakt: {email}.',
  operatorUnset: 'Der Betreiber dieser Installation hat seine Identität noch nicht angegeben.',
  tos: {
    title: 'Nutzungsbedingungen',
    description: 'Die Bedingungen für die Nutzung dieser Charla-Installation.',
    sections: [
      {
        h: 'Wer den Dienst erbringt',
        p: [
          'Charla ist Open-Source-Software (AGPL-3.0). Der Betreiber dieser Installation erbringt den Dienst und ist dafür verantwortlich; seine Angaben stehen oben.',
        ],
      },
      {
        h: 'Ihr Konto',
        p: [
          'Sie sind verantwortlich für Ihr Konto, für das, was Ihr Bot veröffentlicht, und für hochgeladene Dateien. Keine Nutzung für Spam, Täuschung oder rechtswidrige Inhalte.',
        ],
      },
      {
        h: 'Nutzungstage und Zahlungen',
        p: [
          'Der Zugang wird in Tagen gemessen. Zahlungen laufen über Stripe; gekaufte Tage kommen zu den verbleibenden hinzu. Der Monatsplan verlängert sich alle 30 Tage bis zur Kündigung.',
        ],
      },
      {
        h: 'KI-Antworten',
        p: [
          'Antworten schreibt ein Sprachmodell; sie können Fehler enthalten. Prüfen Sie die Gespräche und übernehmen Sie bei Bedarf.',
        ],
      },
      {
        h: 'Ende des Dienstes',
        p: [
          'Sie können jederzeit aufhören. Der Betreiber kann Konten sperren, die gegen diese Bedingungen verstoßen.',
        ],
      },
    ],
  },
  privacy: {
    title: 'Datenschutzerklärung',
    description: 'Welche Daten diese Charla-Installation speichert und wozu.',
    sections: [
      {
        h: 'Daten der Inhaber',
        p: [
          'Ihre E-Mail, die Konfiguration Ihres Bots, Ihre Dateien und Ihre Zahlungshistorie, um den Dienst zu erbringen.',
        ],
      },
      {
        h: 'Daten der Follower',
        p: [
          'Die Nachrichten an einen Bot und seine Antworten, mit der Kennung des Kanals. Der Inhaber des Bots kann sie lesen, um seine Follower zu betreuen.',
        ],
      },
      {
        h: 'Mit wem sie geteilt werden',
        p: [
          'Mit dem vom Betreiber gewählten KI-Anbieter, um Antworten zu schreiben; mit Telegram oder WhatsApp, um Nachrichten zuzustellen; mit Stripe für Zahlungen. Nichts wird verkauft.',
        ],
      },
      {
        h: 'Cookies',
        p: ['Nur ein Sitzungscookie, damit Sie angemeldet bleiben. Keine Werbe- oder Tracking-Cookies.'],
      },
      {
        h: 'Ihre Rechte',
        p: [
          'Sie können beim Betreiber eine Kopie Ihrer Daten, ihre Berichtigung oder Löschung verlangen. Ein gelöschtes Gespräch wird vom Server entfernt.',
        ],
      },
    ],
  },
  security: {
    title: 'Sicherheit und Compliance',
    description: 'Wie Charla Daten und Zugangsdaten schützt.',
    sections: [
      {
        h: 'Verschlüsselte Zugangsdaten',
        p: [
          'Telegram-Tokens sowie WhatsApp- und Stripe-Schlüssel werden verschlüsselt gespeichert (AES-256-GCM) und nie protokolliert.',
        ],
      },
      {
        h: 'Jeder sieht nur das Eigene',
        p: [
          'Jede Route des Dashboards prüft die Sitzung und beschränkt Daten auf ihren Inhaber; automatische Tests prüfen das Route für Route.',
        ],
      },
      {
        h: 'Signierte Webhooks',
        p: [
          'Benachrichtigungen von Telegram, Meta und Stripe werden vor der Verarbeitung per Signatur oder geheimem Token geprüft.',
        ],
      },
      {
        h: 'Open Source',
        p: [
          'Der gesamte Code ist prüfbar. Wenn Sie eine Schwachstelle finden, schreiben Sie uns vor der Veröffentlichung; wir beheben sie so schnell wie möglich.',
        ],
      },
    ],
  },
};
