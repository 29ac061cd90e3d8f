// The facts of the season pages (docs/SPEC.md section 2: Reefscape, Crescendo and
// the scroll-driven page). The pages read only from here, so one edit here
// changes what the site says.

import type { ExternalLink, Fact } from '../../shared/content-types';

/** A YouTube video shown through the privacy-enhanced (no-cookie) player. */
export interface Video {
  /** The 11-character id in the video's address (youtube.com/watch?v=ID). */
  youtubeId: string;
  /** What the video is; the iframe's title and the offline poster's caption. */
  title: string;
}

/** The current season page (/reefscape). */
export interface CurrentSeason {
  year: number;
  game: string;
  tagline: string;
  /** Kickoff stream and game reveal, in that order; the page opens them in a new tab. */
  links: readonly [ExternalLink, ExternalLink];
  videoHeading: string;
  video: Video;
  /** Kickoff as an ISO time with its zone; the page counts down to it without showing it. */
  kickoffAt: string;
}

/** A past season page (/crescendo). */
export interface PastSeason {
  year: number;
  game: string;
  tagline: string;
  challenge: readonly string[];
  robot: {
    name: string;
    summary: string;
    facts: readonly Fact[];
  };
}

/** One band of the scroll-driven page (/rebuilt), top to bottom. */
export interface Stratum {
  heading: string;
  text: string;
}

/** The scroll-driven page (/rebuilt). */
export interface ScrollSeason {
  game: string;
  strata: readonly [Stratum, Stratum, Stratum, Stratum];
  fossilCaption: string;
}

/** REEFSCAPE, the 2025 game. */
export const reefscape: CurrentSeason = {
  year: 2025,
  game: 'REEFSCAPE',
  tagline: 'Our 2025 FIRST Robotics Competition season',
  links: [
    {
      label: 'Watch the kickoff stream',
      href: 'https://www.firstinspires.org/robotics/frc/kickoff',
    },
    {
      label: 'See the game reveal',
      href: 'https://www.firstinspires.org/robotics/frc/game-and-season',
    },
  ],
  videoHeading: 'Check out our 2025 season safety animation!',
  video: {
    // PLACEHOLDER: the id of the team's safety animation upload on YouTube.
    // Replace these 11 characters with the real id; nothing else changes.
    youtubeId: 'XXXXXXXXXXX',
    title: 'RoboHornets 2025 season safety animation',
  },
  // January 4, 2025 12:00 EST (docs/SPEC.md section 2).
  kickoffAt: '2025-01-04T12:00:00-05:00',
};

/** CRESCENDO, the 2024 game, and the robot the team built for it. */
export const crescendo: PastSeason = {
  year: 2024,
  game: 'CRESCENDO',
  tagline: 'Our 2024 FIRST Robotics Competition season',
  challenge: [
    'CRESCENDO was the 2024 FIRST Robotics Competition game, and it was all about music. Two alliances of three robots raced to collect orange foam rings called notes and shoot them into their alliance’s speaker or drop them into the amp.',
    'Notes scored in the amp could amplify the speaker for a few seconds, making every note shot into it worth more. At the end of the match, robots climbed onto the chains of the stage, and a note placed in the trap earned even more points.',
  ],
  robot: {
    name: 'Java the Hutt',
    summary: 'Our 2024 robot, built by the RoboHornets during build season.',
    facts: [
      // The weight really is listed under "Dimensions" on this page; keep it so.
      { label: 'Dimensions', value: '91 lbs' },
      { label: 'Drive', value: 'Swerve drive' },
      { label: 'Size', value: '22x22x25 inches without bumpers' },
    ],
  },
};

/** REBUILT, the scroll-driven page. */
export const rebuilt: ScrollSeason = {
  game: 'REBUILT',
  strata: [
    {
      heading: 'REBUILT',
      text: 'Every season the RoboHornets tear down and build again. Scroll down and dig in.',
    },
    {
      heading: 'Tear it down',
      text: 'A new game means a blank sheet: last year’s robot goes on the shelf and the ideas come out.',
    },
    {
      heading: 'Build it back',
      text: 'Six weeks of build season: design, machining, wiring and code, from early January on.',
    },
    {
      heading: 'Dig deeper',
      text: 'Every robot leaves something behind for the next one to build on.',
    },
  ],
  fossilCaption: 'A RoboHornets fossil: one gear, many seasons.',
};
