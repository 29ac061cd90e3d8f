import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { rebuilt, type Stratum } from './content';
import { useRouteHead } from '../../shared/use-route-head';
import { usePrefersReducedMotion } from '../../shared/use-motion-preference';
import { Team, WaveAmplitude, WaveLength, WavePathStep } from '../../gen/spec.gen';
import { revealBaseline, revealProgress, scrollPhase, waveClipPath } from './wave';
import './season.css';
import './rebuilt.css';
import { SeasonHomeLink } from './season-home-link';

/** How fast and which way each band's wave runs as the page scrolls. */
const bandSpeeds = [0.8, -1.1, 1.3, -0.9] as const;
/** A fixed shift per band so neighbouring waves never line up. */
const bandOffsets = [0, 1.9, 3.7, 5.1] as const;

interface Layout {
  width: number;
  heights: readonly number[];
  scrollY: number;
  /** Top of the last band relative to the viewport, px. */
  lastTop: number;
  viewportHeight: number;
}

const unmeasured: Layout = { width: 0, heights: [], scrollY: 0, lastTop: 0, viewportHeight: 0 };

/** A clip-path style for a computed clip, none before the page is measured. */
const clipStyle = (clip: string | null) => (clip ? { clipPath: clip } : undefined);

interface BandProps {
  /** Which band, from 0 at the top. */
  index: number;
  clip: string | null;
  /** The id of the band's heading. */
  labelledBy: string;
  /** How far the fossil is uncovered, on the last band. */
  reveal?: string;
  children: ReactNode;
}

/** One coloured band, its top edge clipped to its wave. */
function Band({ index, clip, labelledBy, reveal, children }: BandProps) {
  return (
    <section
      className={`rebuilt-band rebuilt-band--${index + 1}`}
      style={clipStyle(clip)}
      aria-labelledby={labelledBy}
      data-reveal={reveal}
    >
      {children}
    </section>
  );
}

/** The text of a numbered layer: its number, heading and words. */
function LayerContent({
  className,
  layer,
  stratum,
}: {
  className: string;
  layer: number;
  stratum: Stratum;
}) {
  return (
    <div className={className}>
      <p className="season-kicker rebuilt-layer" aria-hidden="true">
        Layer {layer}
      </p>
      <h2 id={`rebuilt-band-${layer}`} className="season-heading rebuilt-heading">
        {stratum.heading}
      </h2>
      <p className="rebuilt-text">{stratum.text}</p>
    </div>
  );
}

/**
 * The scroll-driven page (docs/SPEC.md section 2, "Scroll-driven page"): four
 * coloured bands (50vh, 50vh, 50vh, 100vh) on a solid gold background whose
 * wavy top edges roll as the page scrolls, a wave that uncovers a fossil in
 * the last band, and a stamp fixed over the page.
 */
export default function Rebuilt() {
  useRouteHead('/rebuilt');
  const reducedMotion = usePrefersReducedMotion();
  const pageRef = useRef<HTMLDivElement>(null);
  const [layout, setLayout] = useState<Layout>(unmeasured);

  useEffect(() => {
    let frame = 0;
    const bands = [
      ...(pageRef.current?.querySelectorAll<HTMLElement>(':scope > .rebuilt-band') ?? []),
    ];
    const measure = () => {
      frame = 0;
      const last = bands[bands.length - 1];
      setLayout({
        width: bands[0]?.clientWidth ?? 0,
        heights: bands.map((b) => b?.clientHeight ?? 0),
        scrollY: window.scrollY,
        lastTop: last ? last.getBoundingClientRect().top : 0,
        viewportHeight: window.innerHeight,
      });
    };
    const schedule = () => {
      if (frame === 0) frame = requestAnimationFrame(measure);
    };
    measure();
    // With reduced motion the waves stand still: only a new size redraws them.
    if (!reducedMotion) window.addEventListener('scroll', schedule, { passive: true });
    window.addEventListener('resize', schedule);
    const observer = typeof ResizeObserver === 'function' ? new ResizeObserver(schedule) : null;
    for (const band of bands) observer?.observe(band);
    return () => {
      cancelAnimationFrame(frame);
      window.removeEventListener('scroll', schedule);
      window.removeEventListener('resize', schedule);
      observer?.disconnect();
    };
  }, [reducedMotion]);

  const scrollY = reducedMotion ? 0 : layout.scrollY;
  const bandClip = (i: number) =>
    waveClipPath({
      width: layout.width,
      height: layout.heights[i] ?? 0,
      amplitude: WaveAmplitude,
      wavelength: WaveLength,
      step: WavePathStep,
      phase: scrollPhase(scrollY, WaveLength, bandSpeeds[i]) + bandOffsets[i],
    });
  const lastHeight = layout.heights[3] ?? 0;
  const progress = reducedMotion ? 1 : revealProgress(layout.lastTop, layout.viewportHeight);
  const revealClip = waveClipPath({
    width: layout.width,
    height: lastHeight,
    amplitude: WaveAmplitude,
    wavelength: WaveLength,
    step: WavePathStep,
    phase: scrollPhase(scrollY, WaveLength, 1.6),
    baseline: revealBaseline(progress, lastHeight, WaveAmplitude),
  });
  const [first, second, third, fourth] = rebuilt.strata;

  return (
    <div ref={pageRef} className="rebuilt">
      <SeasonHomeLink dark />
      <Stamp className="rebuilt-overlay" />

      <Band index={0} clip={bandClip(0)} labelledBy="rebuilt-title">
        <div className="rebuilt-content">
          <p className="season-kicker">FRC Team {Team}</p>
          <h1 id="rebuilt-title" className="season-heading rebuilt-title">
            {first.heading}
          </h1>
          <p className="rebuilt-text">{first.text}</p>
        </div>
      </Band>

      {[second, third].map((stratum, k) => {
        const i = k + 1;
        return (
          <Band
            key={stratum.heading}
            index={i}
            clip={bandClip(i)}
            labelledBy={`rebuilt-band-${i + 1}`}
          >
            <span className="rebuilt-numeral" aria-hidden="true">
              0{i + 1}
            </span>
            <LayerContent className="rebuilt-content" layer={i + 1} stratum={stratum} />
          </Band>
        );
      })}

      <Band index={3} clip={bandClip(3)} labelledBy="rebuilt-band-4" reveal={progress.toFixed(2)}>
        <div className="rebuilt-reveal" style={clipStyle(revealClip)}>
          <figure className="rebuilt-fossil">
            <Fossil className="rebuilt-fossil-art" />
            <figcaption className="rebuilt-fossil-caption">{rebuilt.fossilCaption}</figcaption>
          </figure>
        </div>
        <LayerContent
          className="rebuilt-content rebuilt-content--last"
          layer={4}
          stratum={fourth}
        />
      </Band>
    </div>
  );
}

/** How fast the shell's whorls shrink, per radian. */
const shrink = 0.09;
const whorl = (t: number) => 84 * Math.exp(-shrink * t);

/** The ammonite's shell: a spiral that shrinks by a fixed ratio every turn. */
const spiral = (() => {
  const points: string[] = [];
  const turns = 3.6;
  for (let t = 0; t <= turns * 2 * Math.PI; t += 0.1) {
    const r = whorl(t);
    points.push(`${(r * Math.cos(t)).toFixed(1)} ${(r * Math.sin(t)).toFixed(1)}`);
  }
  return `M${points.join(' L')}`;
})();

/** Ribs across the two outer whorls of the shell. */
const ribs = Array.from({ length: 56 }, (_, k) => {
  const t = (k / 28) * 2 * Math.PI;
  const outer = whorl(t);
  const inner = whorl(t + 2 * Math.PI);
  const x = (r: number) => (r * Math.cos(t)).toFixed(1);
  const y = (r: number) => (r * Math.sin(t)).toFixed(1);
  return `M${x(outer * 0.97)} ${y(outer * 0.97)} L${x(inner * 1.05)} ${y(inner * 1.05)}`;
}).join(' ');

/** Gear teeth around the shell. */
const teeth = Array.from({ length: 14 }, (_, k) => (k * 360) / 14);

/** An ammonite in the shape of a gear: a RoboHornets fossil. Original artwork. */
function Fossil({ className }: { className?: string }) {
  return (
    <svg
      className={className}
      viewBox="-130 -130 260 260"
      role="img"
      aria-label="Fossil of a gear-shaped ammonite"
    >
      <g fill="#cdb58a" stroke="#6b5330" strokeWidth="4">
        {teeth.map((deg) => (
          <rect
            key={deg}
            x="-13"
            y="-112"
            width="26"
            height="30"
            rx="5"
            transform={`rotate(${deg})`}
          />
        ))}
      </g>
      <circle r="94" fill="#e6d3ab" stroke="#6b5330" strokeWidth="5" />
      <path d={ribs} fill="none" stroke="#9c7f4f" strokeWidth="4" strokeLinecap="round" />
      <path
        d={spiral}
        fill="none"
        stroke="#5a4426"
        strokeWidth="6"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
      <circle r="8" fill="#5a4426" />
      <g fill="#6b5330" opacity="0.5">
        <circle cx="-60" cy="70" r="3" />
        <circle cx="70" cy="-66" r="2.5" />
        <circle cx="80" cy="50" r="2" />
      </g>
    </svg>
  );
}

/** The stamp fixed over the page: the crew's excavation mark. Original artwork. */
function Stamp({ className }: { className?: string }) {
  const id = `rebuilt${useId().replace(/[^a-zA-Z0-9_-]/g, '')}`;
  return (
    <svg className={className} viewBox="0 0 200 200" aria-hidden="true">
      <defs>
        <path id={`${id}-arc`} d="M30 100 A70 70 0 1 1 170 100 A70 70 0 1 1 30 100" />
      </defs>
      <circle cx="100" cy="100" r="94" fill="#111" stroke="#f5b700" strokeWidth="6" />
      <circle
        cx="100"
        cy="100"
        r="52"
        fill="none"
        stroke="#f5b700"
        strokeWidth="3"
        strokeDasharray="6 6"
      />
      <text
        fontFamily="system-ui, 'Segoe UI', Roboto, Arial, sans-serif"
        fontSize="19"
        fontWeight="800"
        letterSpacing="3"
        fill="#f5b700"
      >
        <textPath href={`#${id}-arc`}>{`REBUILT · DIG CREW · TEAM ${Team} ·`}</textPath>
      </text>
      <g transform="translate(100 100) rotate(-35)" fill="#f5b700">
        <rect x="-4" y="-38" width="8" height="60" rx="3" />
        <path d="M-22 -44 Q0 -60 22 -44 L18 -36 Q0 -46 -18 -36Z" />
        <rect x="-7" y="20" width="14" height="20" rx="4" fill="#fff" />
      </g>
    </svg>
  );
}
