import { useId, type ReactNode } from 'react';

/** The product mark: a quadcopter over its hexagonal nest. */
export function Logo({ size = 34 }: { size?: number }): ReactNode {
  const gradient = `nest-logo-${useId().replace(/:/g, '')}`;
  return (
    <svg className="nest-logo" width={size} height={size} viewBox="0 0 64 64" aria-hidden="true">
      <defs>
        <linearGradient id={gradient} x1="0" y1="0" x2="0" y2="1">
          <stop offset="0" stopColor="var(--nest-accent)" stopOpacity="0.35" />
          <stop offset="1" stopColor="var(--nest-accent)" stopOpacity="0.05" />
        </linearGradient>
      </defs>
      <path d="M32 3 57 17.5v29L32 61 7 46.5v-29z" fill={`url(#${gradient})`} stroke="var(--nest-accent)" strokeWidth="2.5" />
      <path d="M18 47h28" stroke="var(--nest-accent)" strokeWidth="2.5" strokeLinecap="round" opacity="0.7" />
      <g stroke="var(--nest-accent-2)" strokeWidth="2.6" strokeLinecap="round">
        <path d="M21 21l22 16M43 21 21 37" />
      </g>
      <g fill="none" stroke="var(--nest-accent)" strokeWidth="2.4">
        <circle cx="20" cy="20" r="5.5" />
        <circle cx="44" cy="20" r="5.5" />
        <circle cx="20" cy="38" r="5.5" />
        <circle cx="44" cy="38" r="5.5" />
      </g>
      <rect x="27" y="24" width="10" height="10" rx="2.5" fill="var(--nest-brand-text)" />
    </svg>
  );
}
