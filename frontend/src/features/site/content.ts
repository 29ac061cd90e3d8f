// Every team text, person, address, link and meeting time the pages show, in
// one place. The defaults are the words of docs/SPEC.md.
// Values in braces, like '{name}' and '{email}', are placeholders the spec
// itself shows: each is one edit away from the real value.
// The season pages read src/features/seasons/content.ts, not this file.

import { type Routes, Team } from '../../gen/spec.gen';
import type { ExternalLink, Fact } from '../../shared/content-types';

/** The team itself. */
export const team = {
  name: 'RoboHornets',
  number: Team,
  /** How the team is named in one line, e.g. in the footer. */
  fullName: `RoboHornets · FRC Team ${Team}`,
  program: 'FIRST Robotics Competition',
  school: 'Booker T. Washington High School',
  city: 'Tulsa, Oklahoma',
  /** The team's contact address (footer, Contact "Email Us", Donate). */
  email: '{email}', // replace with the team's real email address
} as const;

/** Returns a mailto: link for address. */
export function mailto(address: string): string {
  return `mailto:${address}`;
}

/** A person visitors can contact. */
export interface Person {
  readonly name: string;
  readonly role: string;
  readonly email: string;
  /** The room at school where the person can be found. */
  readonly room: string;
}

/** The two team sponsors (teachers) shown on Home ("Joining Team {number}") and Contact. */
export const teamSponsors: readonly Person[] = [
  {
    name: '{name}', // replace with the real name
    role: 'Team Sponsor',
    email: '{email}', // replace with the real email address
    room: '303',
  },
  {
    name: '{name}', // replace with the real name
    role: 'Team Sponsor',
    email: '{email}', // replace with the real email address
    room: '406',
  },
];

/** A postal address. */
export interface Address {
  /** Who is at the address. */
  readonly place: string;
  readonly street: string;
  readonly city: string;
}

// The spec names these places but not their street addresses; these are the
// institutions' public main addresses. Check them before launch.
/** The high school: the team's home, shown on Contact and in the footer. */
export const schoolAddress: Address = {
  place: 'Booker T. Washington High School',
  street: '1514 E Zion St',
  city: 'Tulsa, OK 74106',
};

/** Where the team builds during build season. */
export const buildSeasonAddress: Address = {
  place: 'The University of Tulsa',
  street: '800 S Tucker Dr',
  city: 'Tulsa, OK 74104',
};

/** Returns a maps-service link that searches for address. */
export function mapsLink(address: Address): string {
  const query = `${address.place}, ${address.street}, ${address.city}`;
  return `https://www.google.com/maps/search/?api=1&query=${encodeURIComponent(query)}`;
}

/** One in-site link. */
export interface SiteLink {
  readonly to: string;
  readonly label: string;
}

/** How the header and the footer name each page they link to; every one is in the route table. */
const pageNames = {
  '/': 'Home',
  '/news': 'News',
  '/outreach': 'Outreach',
  '/sponsors': 'Sponsors',
  '/about': 'About',
  '/contact': 'Contact',
  '/donate': 'Donate',
} as const satisfies Partial<Record<keyof typeof Routes, string>>;

/** Links to the pages at paths, in that order. */
function pageLinks(paths: readonly (keyof typeof pageNames)[]): readonly SiteLink[] {
  return paths.map((to) => ({ to, label: pageNames[to] }));
}

/** The header navigation, in the spec's order. */
export const mainNav = pageLinks(['/', '/news', '/outreach', '/sponsors', '/about', '/contact']);

/** The footer sitemap, in the spec's order. */
export const sitemap = pageLinks([
  '/',
  '/news',
  '/outreach',
  '/about',
  '/contact',
  '/sponsors',
  '/donate',
]);

/** The footer's links to the FIRST organisation, the university and the high school. */
export const partnerLinks: readonly ExternalLink[] = [
  { href: 'https://www.firstinspires.org/', label: 'FIRST Robotics' },
  { href: 'https://utulsa.edu/', label: 'University of Tulsa' },
  { href: 'https://btw.tulsaschools.org/', label: 'Booker T. Washington High School' },
];

/** The kinds of social account the spec lists; each has its own icon. */
export type SocialKind = 'video' | 'short-video' | 'photo' | 'threads';

/** One social media account. */
export interface SocialAccount {
  readonly kind: SocialKind;
  /** The service's name. */
  readonly service: string;
  readonly href: string;
}

// The spec names the four kinds of account but not the team's handles.
const socialHandle = '{handle}'; // replace with the team's real account name(s)

/** The social media block: video channel, short-video channel, photo sharing, Threads. */
export const socialAccounts: readonly SocialAccount[] = [
  { kind: 'video', service: 'YouTube', href: `https://www.youtube.com/@${socialHandle}` },
  { kind: 'short-video', service: 'TikTok', href: `https://www.tiktok.com/@${socialHandle}` },
  { kind: 'photo', service: 'Instagram', href: `https://www.instagram.com/${socialHandle}/` },
  { kind: 'threads', service: 'Threads', href: `https://www.threads.net/@${socialHandle}` },
];

/** The heading and line over the social links. */
export const socialBlock = {
  heading: 'Follow the RoboHornets',
  text: 'Robot reveals, competition days and life in the shop.',
} as const;

/** One meeting schedule. */
export interface MeetingSchedule {
  readonly season: string;
  readonly term: string;
  readonly times: readonly string[];
}

/** When the team meets (docs/SPEC.md section 9). */
export const meetings: readonly MeetingSchedule[] = [
  {
    season: 'Off-season',
    term: 'Semester 1',
    times: ['Mondays and Wednesdays 3:40PM-6:00PM'],
  },
  {
    season: 'Build season',
    term: 'Semester 2',
    times: ['Mondays and Wednesdays 3:40PM-6:00PM', 'plus Saturdays 12:00PM-4:30PM'],
  },
];

/** The new-member meetings the home page announces. */
export const newMemberMeetings =
  'Our first new-member meeting was September 4th, and another one is on September 11th.';

/** A game challenge card on the home page. */
export interface ChallengeCard {
  /** The card's heading; the spec heads both cards 2025. */
  readonly year: string;
  readonly game: string;
  readonly text: string;
  readonly to: string;
}

/** The home page's texts. */
export const home = {
  bannerTitle: 'BTW ROBOTICS',
  bannerTagline: `FIRST Robotics Competition Team ${Team} · Tulsa, Oklahoma`,
  intro: {
    heading: 'We are the RoboHornets',
    paragraphs: [
      `The RoboHornets are FIRST Robotics Competition Team ${Team} from Booker T. Washington High School in Tulsa. Since the team was founded in 2003 it has grown to over 40 members.`,
      'Every year we design, build and program a competition robot from scratch, and along the way we learn engineering, fundraising, outreach and how to work as one team.',
    ],
    facts: [
      { value: String(Team), label: 'Our team number' },
      { value: '40+', label: 'Members' },
      { value: '2003', label: 'Founded' },
      { value: '6 weeks', label: 'Of build season' },
    ] satisfies readonly Fact[],
  },
  joining: {
    heading: `Joining Team ${Team}`,
    text: 'New members are always welcome, with or without experience. To join, get in touch with one of our team sponsors:',
  },
  meetingsHeading: 'Meetings',
  buildSeason: {
    heading: 'Build Season',
    text: 'Build season lasts six weeks, starting in early January at kickoff, when the new game is revealed. In those weeks we go from a blank page to a robot ready for competition.',
    steps: [
      { value: 'Kickoff', label: 'Early January: the new game is revealed' },
      { value: 'Six weeks', label: 'Design, build, program and test' },
      { value: 'Compete', label: 'The robot takes the field at the regionals' },
    ] satisfies readonly Fact[],
  },
  challengesHeading: 'FRC Challenges',
  // The spec heads both cards 2025 (Crescendo was the 2024 game); kept as the spec shows it.
  challenges: [
    {
      year: '2025',
      game: 'Reefscape',
      text: 'An undersea challenge: robots gather coral and algae, score them on the reef and finish by climbing onto the barge.',
      to: '/reefscape',
    },
    {
      year: '2025',
      game: 'Crescendo',
      text: 'A music-themed challenge: robots score notes in the speaker and the amp, then climb the stage together for the finale.',
      to: '/crescendo',
    },
  ] satisfies readonly ChallengeCard[],
  /** A challenge card's link; its words name the game, for visitors and search engines alike. */
  learnMore: (game: string) => `Learn More about ${game}`,
  readMore: 'Read More About our Team',
  /** The link to /follow beside it (issue 37): the team's event days, live. */
  followLive: 'Follow us live at events',
} as const;

/** The About page's texts. */
export const about = {
  bannerTitle: 'ABOUT US',
  facts: [
    { value: '2002', label: 'Founded' },
    { value: '6 weeks', label: 'Build season, from early January' },
    { value: 'Mon · Wed · Sat', label: 'At the University of Tulsa' },
    { value: 'Shawnee & Tulsa', label: 'Our regionals this year' },
  ] satisfies readonly Fact[],
  sections: [
    {
      heading: 'Our story',
      paragraphs: [
        'The RoboHornets were founded in 2002 as a way to increase STEM involvement at Booker T. Washington, a school without shop classes.',
        'Building a robot gave students a place to cut, wire, program and test real machines, and to discover where science, technology, engineering and math can take them.',
      ],
    },
    {
      heading: 'Build season',
      paragraphs: [
        'Build season starts in early January at the kickoff, when the season’s game is revealed, and lasts six weeks. In that time the team designs, builds and programs a robot for the new game.',
      ],
    },
    {
      heading: 'Where we meet',
      paragraphs: ['The team meets Monday, Wednesday and Saturday at the University of Tulsa.'],
    },
    {
      heading: 'Competitions',
      paragraphs: ['This year the team competes at the Shawnee and Tulsa regionals.'],
    },
  ],
} as const;

/** The Contact page's texts. */
export const contact = {
  bannerTitle: 'CONTACT US',
  sponsorsHeading: 'Team sponsors',
  addressesHeading: 'Where to find us',
  schoolLabel: 'School',
  buildSeasonLabel: 'Build season',
  emailHeading: 'Write to the team',
  emailText: 'Questions about joining, sponsoring or visiting? Send us an email.',
  emailButton: 'Email Us',
} as const;

/** The Outreach page: a placeholder, exactly as the spec shows it. */
export const outreach = {
  heading: 'Outreach',
  placeholder: 'outreach works!',
} as const;

/** The Sponsors page: a parallax banner titled NEWS, a quirk of the team's site the spec keeps. */
export const sponsorsPage = {
  bannerTitle: 'NEWS',
} as const;

/** The Donate page (linked from the footer; the spec does not show it, so its words are ours). */
export const donate = {
  bannerTitle: 'SUPPORT US',
  heading: 'Support the RoboHornets',
  intro:
    'The RoboHornets run on the generosity of families, businesses and friends. Your support pays for robot parts, tools, competition entry and travel, and keeps the team open to every student who wants to build.',
  ways: [
    {
      heading: 'Give',
      text: 'A gift of any size goes straight into parts, tools and event fees for the season.',
    },
    {
      heading: 'Sponsor',
      text: 'Businesses can sponsor the team for a season and help us reach more students.',
    },
    {
      heading: 'Share your skills',
      text: 'Engineers, programmers, machinists and designers can mentor students during build season.',
    },
    {
      heading: 'Donate equipment',
      text: 'Tools, materials and shop space help us build better robots and teach more students.',
    },
  ],
  contactText: 'To give, sponsor or volunteer, write to us at',
  button: 'Email Us',
} as const;
