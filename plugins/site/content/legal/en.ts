/** The site's legal pages (terms of service, privacy, security) in English, kept apart from the marketing pages' words. */
import type { SiteContent } from '../types.ts';

export const legal: SiteContent['legal'] = {
  back: '← Back to home',
  updated: 'Last updated: 23 November 2026',
  operator: 'This Charla installation is operated by {name}. Contact: {email}.',
  operatorUnset: 'The operator of this installation has not stated their identity yet.',
  tos: {
    title: 'Terms of service',
    description: 'The terms for using this Charla installation.',
    sections: [
      {
        h: 'Who provides the service',
        p: [
          'Charla is open-source software (AGPL-3.0). Whoever operates this installation provides the service and is responsible for it; their details are above.',
        ],
      },
      {
        h: 'Your account',
        p: [
          'You are responsible for your account, for what your bot publishes and for the files you upload. Do not use the service for spam, deception or unlawful content.',
        ],
      },
      {
        h: 'Days of use and payments',
        p: [
          'Access is measured in days. Payments are processed by Stripe; the days bought are added to those you have left. The Monthly plan renews every 30 days until you cancel it.',
        ],
      },
      {
        h: 'AI answers',
        p: [
          'Answers are written by a language model and may contain mistakes. Review the conversations and take over when needed.',
        ],
      },
      {
        h: 'Ending the service',
        p: [
          'You can stop using it whenever you like. The operator may suspend accounts that break these terms.',
        ],
      },
    ],
  },
  privacy: {
    title: 'Privacy policy',
    description: 'What data this Charla installation keeps, and why.',
    sections: [
      {
        h: 'Owners’ data',
        p: [
          'Your e-mail, your bot’s configuration, your files and your payment history, to provide the service.',
        ],
      },
      {
        h: 'Followers’ data',
        p: [
          'The messages followers send a bot and its answers, with the channel’s identifier. The bot’s owner can read them to look after their followers.',
        ],
      },
      {
        h: 'Who it is shared with',
        p: [
          'The AI model provider the operator configures, to write answers; Telegram or WhatsApp, to deliver messages; Stripe, for payments. Nothing is sold.',
        ],
      },
      {
        h: 'Cookies',
        p: ['Only a session cookie to keep you signed in. The site uses no advertising or tracking cookies.'],
      },
      {
        h: 'Your rights',
        p: [
          'You can ask the operator for a copy of your data, to correct it or to delete it. Deleting a conversation removes it from the server.',
        ],
      },
    ],
  },
  security: {
    title: 'Security and compliance',
    description: 'How Charla protects data and credentials.',
    sections: [
      {
        h: 'Encrypted credentials',
        p: [
          'Telegram tokens and WhatsApp and Stripe keys are stored encrypted (AES-256-GCM) and never written to the logs.',
        ],
      },
      {
        h: 'Each owner sees their own',
        p: [
          'Every dashboard route checks the session and limits data to its owner; automated tests check it route by route.',
        ],
      },
      {
        h: 'Signed webhooks',
        p: [
          'Telegram, Meta and Stripe notifications are verified by their signature or secret token before they are processed.',
        ],
      },
      {
        h: 'Open source',
        p: [
          'All the code can be audited. If you find a vulnerability, write to us before publishing it and we will fix it as soon as we can.',
        ],
      },
    ],
  },
};
