/** The site's legal pages (terms of service, privacy, security) in French, kept apart from the marketing pages' words. */
import type { SiteContent } from '../types.ts';

export const legal: SiteContent['legal'] = {
  back: '← Retour à l’accueil',
  updated: 'Dernière mise à jour : 23 novembre 2026',
  operator: 'Cette installation de Charla est exploitée par {name}. Contact : {email}.',
  operatorUnset: 'L’exploitant de cette installation n’a pas encore indiqué son identité.',
  tos: {
    title: 'Conditions d’utilisation',
    description: 'Les conditions d’utilisation de cette installation de Charla.',
    sections: [
      {
        h: 'Qui fournit le service',
        p: [
          'Charla est un logiciel open source (AGPL-3.0). L’exploitant de cette installation fournit le service et en répond ; ses coordonnées figurent ci-dessus.',
        ],
      },
      {
        h: 'Votre compte',
        p: [
          'Vous êtes responsable de votre compte, de ce que publie votre bot et des fichiers que vous envoyez. N’utilisez pas le service pour du spam, de la tromperie ou des contenus illicites.',
        ],
      },
      {
        h: 'Jours d’usage et paiements',
        p: [
          'L’accès se mesure en jours. Les paiements passent par Stripe ; les jours achetés s’ajoutent à ceux qui restent. Le forfait Mensuel se renouvelle tous les 30 jours jusqu’à sa résiliation.',
        ],
      },
      {
        h: 'Réponses de l’IA',
        p: [
          'Les réponses sont rédigées par un modèle de langage et peuvent contenir des erreurs. Relisez les conversations et reprenez la main si besoin.',
        ],
      },
      {
        h: 'Fin du service',
        p: [
          'Vous pouvez arrêter quand vous le souhaitez. L’exploitant peut suspendre les comptes qui enfreignent ces conditions.',
        ],
      },
    ],
  },
  privacy: {
    title: 'Politique de confidentialité',
    description: 'Les données que conserve cette installation de Charla, et pourquoi.',
    sections: [
      {
        h: 'Données des propriétaires',
        p: [
          'Votre e-mail, la configuration de votre bot, vos fichiers et votre historique de paiements, pour fournir le service.',
        ],
      },
      {
        h: 'Données des abonnés',
        p: [
          'Les messages envoyés à un bot et ses réponses, avec l’identifiant du canal. Le propriétaire du bot peut les lire pour servir ses abonnés.',
        ],
      },
      {
        h: 'Avec qui elles sont partagées',
        p: [
          'Le fournisseur du modèle d’IA choisi par l’exploitant, pour rédiger les réponses ; Telegram ou WhatsApp, pour livrer les messages ; Stripe, pour les paiements. Rien n’est vendu.',
        ],
      },
      {
        h: 'Cookies',
        p: ['Un seul cookie de session pour rester connecté. Aucun cookie publicitaire ni de suivi.'],
      },
      {
        h: 'Vos droits',
        p: [
          'Vous pouvez demander à l’exploitant une copie de vos données, leur correction ou leur suppression. Supprimer une conversation l’efface du serveur.',
        ],
      },
    ],
  },
  security: {
    title: 'Sécurité et conformité',
    description: 'Comment Charla protège les données et les identifiants.',
    sections: [
      {
        h: 'Identifiants chiffrés',
        p: [
          'Les jetons Telegram et les clés WhatsApp et Stripe sont chiffrés (AES-256-GCM) et jamais écrits dans les journaux.',
        ],
      },
      {
        h: 'Chacun voit ses données',
        p: [
          'Chaque route du tableau de bord vérifie la session et limite les données à leur propriétaire ; des tests automatiques le vérifient route par route.',
        ],
      },
      {
        h: 'Webhooks signés',
        p: [
          'Les notifications de Telegram, Meta et Stripe sont vérifiées par leur signature ou leur jeton secret avant traitement.',
        ],
      },
      {
        h: 'Open source',
        p: [
          'Tout le code peut être audité. Si vous trouvez une faille, écrivez-nous avant de la publier et nous la corrigerons au plus vite.',
        ],
      },
    ],
  },
};
