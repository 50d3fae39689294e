/** The site's legal pages (terms of service, privacy, security) in Italian, kept apart from the marketing pages' words. */
import type { SiteContent } from '../types.ts';

export const legal: SiteContent['legal'] = {
  back: '← Torna alla home',
  updated: 'Ultimo aggiornamento: 23 novembre 2026',
  operator: 'Questa installazione di Charla è gestita da {name}. Contatto: {email}.',
  operatorUnset: 'Il gestore di questa installazione non ha ancora indicato la sua identità.',
  tos: {
    title: 'Termini del servizio',
    description: 'Le condizioni per usare questa installazione di Charla.',
    sections: [
      {
        h: 'Chi fornisce il servizio',
        p: [
          'Charla è software open source (AGPL-3.0). Chi gestisce questa installazione fornisce il servizio e ne risponde; i suoi dati sono indicati sopra.',
        ],
      },
      {
        h: 'Il tuo account',
        p: [
          'Sei responsabile del tuo account, di ciò che pubblica il tuo bot e dei file che carichi. Non usare il servizio per spam, inganni o contenuti illeciti.',
        ],
      },
      {
        h: 'Giorni di uso e pagamenti',
        p: [
          'L’accesso si misura in giorni. I pagamenti passano da Stripe; i giorni acquistati si sommano a quelli rimasti. Il piano Mensile si rinnova ogni 30 giorni finché non lo disdici.',
        ],
      },
      {
        h: 'Risposte dell’IA',
        p: [
          'Le risposte le scrive un modello linguistico e possono contenere errori. Controlla le conversazioni e prendi il controllo quando serve.',
        ],
      },
      {
        h: 'Fine del servizio',
        p: ['Puoi smettere quando vuoi. Il gestore può sospendere gli account che violano questi termini.'],
      },
    ],
  },
  privacy: {
    title: 'Informativa sulla privacy',
    description: 'Quali dati conserva questa installazione di Charla e perché.',
    sections: [
      {
        h: 'Dati dei titolari',
        p: [
          'La tua e-mail, la configurazione del bot, i tuoi file e lo storico dei pagamenti, per fornirti il servizio.',
        ],
      },
      {
        h: 'Dati dei follower',
        p: [
          'I messaggi inviati a un bot e le sue risposte, con l’identificativo del canale. Il titolare del bot può leggerli per assistere i suoi follower.',
        ],
      },
      {
        h: 'Con chi sono condivisi',
        p: [
          'Con il fornitore del modello di IA scelto dal gestore, per scrivere le risposte; con Telegram o WhatsApp, per consegnare i messaggi; con Stripe, per i pagamenti. Nulla viene venduto.',
        ],
      },
      {
        h: 'Cookie',
        p: [
          'Solo un cookie di sessione per restare connesso. Nessun cookie pubblicitario o di tracciamento.',
        ],
      },
      {
        h: 'I tuoi diritti',
        p: [
          'Puoi chiedere al gestore una copia dei tuoi dati, la rettifica o la cancellazione. Eliminare una conversazione la rimuove dal server.',
        ],
      },
    ],
  },
  security: {
    title: 'Sicurezza e conformità',
    description: 'Come Charla protegge dati e credenziali.',
    sections: [
      {
        h: 'Credenziali cifrate',
        p: [
          'I token di Telegram e le chiavi di WhatsApp e Stripe sono cifrati (AES-256-GCM) e mai scritti nei log.',
        ],
      },
      {
        h: 'Ognuno vede i propri dati',
        p: [
          'Ogni rotta del pannello verifica la sessione e limita i dati al titolare; test automatici lo controllano rotta per rotta.',
        ],
      },
      {
        h: 'Webhook firmati',
        p: [
          'Le notifiche di Telegram, Meta e Stripe sono verificate con firma o token segreto prima di essere elaborate.',
        ],
      },
      {
        h: 'Open source',
        p: [
          'Tutto il codice è verificabile. Se trovi una vulnerabilità, scrivici prima di pubblicarla e la correggeremo al più presto.',
        ],
      },
    ],
  },
};
