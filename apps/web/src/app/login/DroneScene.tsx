import type { ReactNode } from 'react';

/** The login visual: a nest with its hatch open and a drone hovering above, drawn in SVG. */
export function DroneScene(): ReactNode {
  const rotors = [
    [232, 150],
    [368, 150],
    [232, 214],
    [368, 214],
  ] as const;
  return (
    <svg className="drone-scene" viewBox="0 0 600 470" role="img" aria-hidden="true">
      <defs>
        <radialGradient id="ds-glow" cx="50%" cy="50%" r="50%">
          <stop offset="0" stopColor="var(--nest-accent)" stopOpacity="0.45" />
          <stop offset="1" stopColor="var(--nest-accent)" stopOpacity="0" />
        </radialGradient>
        <linearGradient id="ds-beam" x1="0" y1="0" x2="0" y2="1">
          <stop offset="0" stopColor="var(--nest-accent)" stopOpacity="0.35" />
          <stop offset="1" stopColor="var(--nest-accent)" stopOpacity="0" />
        </linearGradient>
        <linearGradient id="ds-body" x1="0" y1="0" x2="0" y2="1">
          <stop offset="0" stopColor="var(--ds-body-top)" />
          <stop offset="1" stopColor="var(--ds-body-bottom)" />
        </linearGradient>
        <linearGradient id="ds-nest" x1="0" y1="0" x2="0" y2="1">
          <stop offset="0" stopColor="var(--ds-nest-top)" />
          <stop offset="1" stopColor="var(--ds-nest-bottom)" />
        </linearGradient>
      </defs>

      {/* ground: glow and perspective grid */}
      <ellipse cx="300" cy="410" rx="260" ry="46" fill="url(#ds-glow)" />
      <g className="ds-grid">
        {[-4, -3, -2, -1, 0, 1, 2, 3, 4].map((i) => (
          <line key={`v${i}`} x1={300 + i * 30} y1="372" x2={300 + i * 90} y2="466" />
        ))}
        {[380, 396, 416, 440, 466].map((y) => (
          <line key={`h${y}`} x1="20" y1={y} x2="580" y2={y} />
        ))}
      </g>

      {/* scanning rings on the ground */}
      <g className="ds-rings">
        <ellipse cx="300" cy="400" rx="120" ry="20" />
        <ellipse cx="300" cy="400" rx="120" ry="20" className="ds-ring-2" />
      </g>

      {/* the nest: base, open hatch doors, landing pad */}
      <g className="ds-nest">
        <path d="M196 330h208l-14 66H210z" fill="url(#ds-nest)" stroke="var(--nest-accent)" strokeWidth="1.5" />
        <rect x="206" y="318" width="188" height="14" rx="3" fill="var(--ds-nest-top)" stroke="var(--nest-accent)" strokeWidth="1.5" />
        <path d="M206 318l-40-34 10-6 44 36z" fill="var(--ds-door)" stroke="var(--nest-accent)" strokeWidth="1.2" />
        <path d="M394 318l40-34-10-6-44 36z" fill="var(--ds-door)" stroke="var(--nest-accent)" strokeWidth="1.2" />
        <ellipse cx="300" cy="322" rx="54" ry="6" fill="none" stroke="var(--nest-accent-2)" strokeWidth="1.5" />
        <path d="M288 319v6M312 319v6M288 322h24" stroke="var(--nest-accent-2)" strokeWidth="1.8" />
        <g className="ds-leds">
          <circle cx="226" cy="352" r="3" />
          <circle cx="240" cy="352" r="3" />
          <circle cx="254" cy="352" r="3" />
        </g>
        <path d="M330 346h50M336 358h40M342 370h30" stroke="var(--nest-accent)" strokeOpacity="0.35" strokeWidth="2" />
      </g>

      {/* the flight path from the pad */}
      <path className="ds-path" d="M300 316 C 300 270, 300 250, 300 222" />
      <path className="ds-path ds-path-far" d="M300 316 C 420 300, 520 200, 470 96" />
      <circle className="ds-waypoint" cx="470" cy="96" r="5" />
      <circle className="ds-waypoint" cx="507" cy="190" r="4" />

      {/* the drone */}
      <g className="ds-drone">
        <path d="M262 206 300 280 338 206z" fill="url(#ds-beam)" className="ds-beam" />
        <g stroke="var(--ds-arm)" strokeWidth="7" strokeLinecap="round">
          <path d="M300 182 232 150M300 182l68-32M300 182l-68 32M300 182l68 32" />
        </g>
        {rotors.map(([x, y]) => (
          <g key={`${x}-${y}`}>
            <circle cx={x} cy={y} r="6" fill="var(--ds-arm)" />
            <ellipse className="ds-rotor" cx={x} cy={y - 4} rx="30" ry="5" />
            <circle cx={x} cy={y} r="28" className="ds-rotor-guard" />
          </g>
        ))}
        <rect x="270" y="164" width="60" height="36" rx="12" fill="url(#ds-body)" stroke="var(--nest-accent)" strokeWidth="1.5" />
        <rect x="284" y="172" width="32" height="8" rx="4" fill="var(--nest-accent)" opacity="0.65" />
        <circle cx="300" cy="212" r="9" fill="var(--ds-body-bottom)" stroke="var(--nest-accent)" strokeWidth="1.5" />
        <circle cx="300" cy="213" r="4" fill="var(--nest-accent-2)" />
        <circle className="ds-led ds-led-a" cx="232" cy="150" r="3" />
        <circle className="ds-led ds-led-b" cx="368" cy="150" r="3" />
      </g>
    </svg>
  );
}
