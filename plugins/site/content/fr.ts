/** The marketing site in French (spec 001 §3, §9 Languages). */
import { legal } from './legal/fr.ts';
import type { SiteContent } from './types.ts';

export const fr = {
  locale: 'fr_FR',
  name: 'Français',
  meta: {
    title: 'Charla · Votre chatbot IA sur Telegram, WhatsApp et le web',
    description:
      'Créez l’assistant IA de votre entreprise en quelques minutes : il répond, envoie vos fichiers et prend des réservations sur Telegram, WhatsApp, votre site et une IALanding. {trialDays} jours gratuits, sans carte.',
  },
  header: {
    pricing: 'Tarifs',
    facebots: 'Facebots',
    cta: 'Créer ma chaîne',
    language: 'Langue',
    skip: 'Aller au contenu',
  },
  banner: '🎁 {trialDays} jours gratuits, sans carte · Open source, sur votre propre serveur',
  hero: {
    title: 'Votre entreprise, servie par une IA',
    highlight: 'sur Telegram, WhatsApp et le web',
    subtitle:
      'Décrivez votre activité, ajoutez vos photos, menus et vidéos, et Charla répond à vos abonnés jour et nuit, avec votre style. Vous lisez chaque conversation et reprenez la main quand vous voulez.',
    login: 'Créer ma chaîne gratuitement',
    directory: 'Voir Facebots',
    demo: 'Essayer une IALanding',
    ticks: ['Configuration en moins de 5 minutes', 'Sans code', 'iALanding incluse'],
  },
  carousel: {
    label: 'Charla en action',
    slides: [
      'Une artiste présente son nouvel album',
      'Une clinique répond et donne des rendez-vous',
      'Un restaurant prend les réservations dans le chat',
      'Une entreprise s’occupe de ses clients',
    ],
    video: 'Démo : une conversation avec un bot Charla',
  },
  howItWorks: {
    title: 'Comment ça marche',
    steps: [
      {
        h: '1. Inscription rapide',
        p: ['Inscrivez-vous avec votre e-mail ou Google. Vous commencez avec {trialDays} jours gratuits.'],
      },
      {
        h: '2. Configurez l’IA',
        p: ['Nom, description, style et langue. Ajoutez jusqu’à 10 fichiers avec leurs mots-clés.'],
      },
      {
        h: '3. Landing active',
        p: ['Connectez Telegram ou WhatsApp et publiez votre IALanding ou le chat sur votre site.'],
      },
    ],
    cta: 'Commencer',
  },
  ialanding: {
    title: 'IALanding : une page qui converse',
    text: 'Chaque bot a sa propre page publique avec un chat. Partagez-la dans votre bio, sur un QR code ou dans vos annonces : les visiteurs demandent et reçoivent réponses, photos, PDF, audios et vidéos aussitôt.',
    features: [
      'Sa propre adresse : /ialanding/votre-entreprise',
      'Parfaite sur mobile',
      'Montre vos fichiers quand on les demande',
      'Aperçu du lien au partage',
    ],
    examples: [
      'Un menu qui répond sur les allergènes',
      'Un portfolio qui montre les œuvres par thème',
      'Une clinique qui explique ses soins',
    ],
    cta: 'Ouvrir l’IALanding d’exemple',
  },
  facebots: {
    title: 'Facebots : l’annuaire des bots',
    text: 'Publiez votre bot dans l’annuaire pour que de nouveaux abonnés le trouvent, l’essaient et l’aiment.',
    chips: {
      all: 'Tous les secteurs',
      health: 'Santé',
      education: 'Éducation',
      entertainment: 'Divertissement',
    },
    filterLabel: 'Filtrer par secteur',
    bots: [
      {
        name: 'Clínica Sonrisa',
        purpose: 'Répond aux questions et prend des rendez-vous',
        language: 'Español',
        industry: 'health',
      },
      {
        name: 'Fisio en Casa',
        purpose: 'Exercices et suivi après la séance',
        language: 'Español',
        industry: 'health',
      },
      {
        name: 'Profe de Mates',
        purpose: 'Explique les problèmes pas à pas',
        language: 'Español',
        industry: 'education',
      },
      {
        name: 'English Coach',
        purpose: 'Pratiquer la conversation en anglais',
        language: 'English',
        industry: 'education',
      },
      {
        name: 'Festival Luna',
        purpose: 'Horaires, billets et plan du festival',
        language: 'Español',
        industry: 'entertainment',
      },
      {
        name: 'Banda Aurora',
        purpose: 'Chansons, concerts et produits dérivés',
        language: 'Español',
        industry: 'entertainment',
      },
    ],
    cta: 'Explorer Facebots',
    sample: 'Exemple',
  },
  useCases: {
    title: 'Pour qui',
    cases: [
      {
        title: 'Influenceur',
        metric: 'Chaque message a sa réponse',
        quote:
          'Vos abonnés posent mille fois la même question : le bot répond avec votre ton et envoie votre dernière vidéo.',
      },
      {
        title: 'Clinique',
        metric: 'Rendez-vous 24 h/24',
        quote: 'Le patient qui demande un rendez-vous à 23 h l’obtient, avec un rappel deux heures avant.',
      },
      {
        title: 'Festival',
        metric: 'Un canal pour tout le public',
        quote: 'Horaires, plan et changements de dernière minute envoyés à tous en un message.',
      },
      {
        title: 'Coach',
        metric: 'Suivi entre les séances',
        quote:
          'Vos clients reçoivent exercices et audios quand ils les demandent, et vous voyez où ils en sont.',
      },
      {
        title: 'Restaurant',
        metric: 'Réservations sans appels',
        quote: 'La carte en PDF, les allergènes et la réservation de table, dans le chat.',
      },
      {
        title: 'Hôtel',
        metric: 'Réponses en 7 langues',
        quote: 'Check-in, parking et bonnes adresses dans la langue de chaque client.',
      },
    ],
  },
  reservations: {
    title: 'Réservations dans le chat',
    text: 'Définissez vos horaires et créneaux ; le bot propose les heures libres, confirme la réservation et ne donne jamais deux fois le même créneau.',
    points: [
      'Horaires par jour et fuseau horaire',
      'Créneaux de 30 minutes, demi-journée ou journée',
      'Voyez, marquez payées ou supprimez les réservations',
      'Rappels automatiques 24 h et 2 h avant',
    ],
    reminder: '2 h avant',
    reminderText: '⏰ Rappel : votre réservation aujourd’hui à 18:00. À tout à l’heure !',
    cta: 'Activer les réservations',
  },
  pricing: {
    title: 'Des prix clairs, à la journée',
    text: 'Vous payez les jours où votre bot est actif. Sans engagement.',
    trial: '{trialDays} jours gratuits à l’inscription, sans carte',
    dayPass: {
      name: 'Day Pass',
      per: '/jour',
      text: 'Pour un événement ou une campagne : de {minDays} à {maxDays} jours.',
      points: ['Toutes les fonctions', 'Paiement unique par carte', 'Sans renouvellement automatique'],
    },
    monthly: {
      name: 'Mensuel',
      badge: 'Le plus populaire',
      per: '/mois',
      text: '{days} jours d’usage pour 30 facturés : {perDay} par jour.',
      points: [
        'Messages illimités',
        'Support prioritaire',
        'Mises à jour incluses',
        'Renouvelé tous les 30 jours ; résiliable à tout moment',
      ],
    },
    cta: 'Commencer gratuitement',
    note: 'Prix en euros, TVA comprise. Paiements gérés par Stripe.',
  },
  comparison: {
    title: 'Charla face aux autres plateformes',
    text: 'Point par point, d’après les informations publiques de chaque produit.',
    feature: 'Ce que nous comparons',
    rows: [
      {
        feature: 'Open source, sur votre serveur',
        charla: 'Oui (AGPL-3.0)',
        manychat: 'Non',
        botpress: 'Non (leur cloud)',
        typebot: 'Oui',
      },
      {
        feature: 'Canaux',
        charla: 'Telegram, WhatsApp, web, IALanding',
        manychat: 'Instagram, Messenger, WhatsApp, Telegram',
        botpress: 'Web, WhatsApp, Telegram et plus',
        typebot: 'Web, WhatsApp',
      },
      {
        feature: 'Comment on paie',
        charla: 'À la journée, dès {dayPrice}',
        manychat: 'Abonnement mensuel',
        botpress: 'Abonnement et usage',
        typebot: 'Abonnement, ou gratuit sur votre serveur',
      },
      {
        feature: 'Réservations avec rappels',
        charla: 'Incluses',
        manychat: 'Via intégrations',
        botpress: 'Via intégrations',
        typebot: 'Via intégrations',
      },
      {
        feature: 'Réponses IA à partir de votre description',
        charla: 'Oui, sans concevoir de flux',
        manychat: 'Flux, IA en option',
        botpress: 'Agents à configurer',
        typebot: 'Flux avec blocs IA',
      },
      {
        feature: 'Notes vocales',
        charla: 'Les comprend et répond en voix',
        manychat: '—',
        botpress: '—',
        typebot: '—',
      },
    ],
    note: 'Comparaison établie d’après la documentation publique de chaque produit en novembre 2026. Si quelque chose a changé, dites-le-nous et nous corrigerons.',
  },
  faq: {
    title: 'Questions fréquentes',
    items: [
      {
        q: 'Faut-il savoir programmer ?',
        a: 'Non. Vous remplissez un formulaire avec la description de votre activité, votre style et vos fichiers, et le bot est prêt.',
      },
      {
        q: 'Combien ça coûte ?',
        a: 'Les {trialDays} premiers jours sont gratuits, sans carte. Ensuite, {dayPrice} par jour avec le Day Pass ou {monthlyPrice} par mois avec le forfait Mensuel.',
      },
      {
        q: 'Sur quels canaux ?',
        a: 'Telegram, WhatsApp (via l’API de Meta ou en liant votre téléphone), un chat pour votre site et votre propre IALanding.',
      },
      {
        q: 'Puis-je répondre à la place du bot ?',
        a: 'Oui. Vous lisez toutes les conversations, reprenez la main sur n’importe laquelle et le bot se met en pause jusqu’à ce que vous la lui rendiez.',
      },
      {
        q: 'Quels fichiers peut-il envoyer ?',
        a: 'Jusqu’à 10 images, PDF, audios ou vidéos de 10 Mo maximum, chacun avec ses mots-clés et son contexte.',
      },
      {
        q: 'Parle-t-il d’autres langues ?',
        a: 'Oui : espagnol, anglais, français, allemand, italien, russe et hindi ; il répond dans la langue choisie pour votre bot.',
      },
      {
        q: 'Où sont mes données ?',
        a: 'Sur le serveur où Charla est installé. C’est open source : vous pouvez le lire, l’héberger vous-même et emporter vos données.',
      },
      {
        q: 'Puis-je résilier ?',
        a: 'Oui, à tout moment. Le forfait Mensuel n’est plus renouvelé et vous gardez les jours déjà payés.',
      },
    ],
  },
  footer: {
    product: 'Produit',
    legal: 'Mentions légales',
    contact: 'Contact',
    tagline: 'Des chatbots IA open source pour les entreprises.',
    links: {
      home: 'Accueil',
      directory: 'Facebots',
      pricing: 'Tarifs',
      demo: 'IALanding d’exemple',
      login: 'Se connecter',
      source: 'Code source',
    },
    tos: 'Conditions d’utilisation',
    privacy: 'Confidentialité',
    security: 'Sécurité',
    contactText: 'Écrivez-nous à',
  },
  assistant: {
    open: 'Ouvrir l’assistant',
    title: 'Asistente Charla',
    placeholder: 'Une question sur Charla...',
    send: 'Envoyer',
    minimise: 'Réduire',
    close: 'Fermer',
    greeting:
      'Bonjour ! 👋 Je suis l’assistant de Charla. Demandez-moi les prix, les canaux ou les réservations.',
    typing: 'En train d’écrire...',
    error: 'Désolé, je rencontre des problèmes techniques. Pouvez-vous réessayer dans un instant ? 😅',
  },
  legal,
  bot: {
    example: 'Bot d’exemple',
    exampleText:
      'Voici à quoi pourrait ressembler un bot Charla. Créez le vôtre en quelques minutes et il apparaîtra dans Facebots.',
    responses: 'réponses',
    likes: 'j’aime',
    like: 'J’aime',
    liked: 'Vous aimez',
    share: 'Partager',
    copied: 'Lien copié',
    telegram: 'Ouvrir dans Telegram',
    landing: 'Ouvrir l’IALanding',
    create: 'Créez votre propre bot',
    back: '← Retour à Facebots',
    language: 'Langue',
    industry: 'Secteur',
  },
  assistantStyle:
    'Réponds en français, sur un ton amusant et professionnel. Utilise de courtes listes numérotées avec un emoji par point. Sois bref (moins de 120 mots).',
} satisfies SiteContent;
