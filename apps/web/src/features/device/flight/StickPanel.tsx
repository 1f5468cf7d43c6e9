import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { CmdType, NEUTRAL_STICKS, SocketState, type Sticks } from '@nest/contracts';
import { useI18n } from '../../../shared/i18n';
import { usePushState } from '../../../shared/push';
import { StickSender, keySticks, padSticks } from './sticks';
import type { DeviceCommand } from './useDeviceCommand';

/** One on-screen stick: drag the knob with a pointer; it springs back to the centre on release. */
function Pad({ label, x, y, onMove, testId }: { label: string; x: number; y: number; onMove: (x: number, y: number) => void; testId: string }): ReactNode {
  const ref = useRef<HTMLDivElement>(null);
  const move = (e: React.PointerEvent) => {
    const r = ref.current?.getBoundingClientRect();
    if (!r) return;
    const nx = ((e.clientX - r.left) / r.width) * 2 - 1;
    const ny = 1 - ((e.clientY - r.top) / r.height) * 2;
    onMove(Math.max(-1, Math.min(1, nx)), Math.max(-1, Math.min(1, ny)));
  };
  return (
    <div
      ref={ref}
      className="stick-pad"
      data-testid={testId}
      onPointerDown={(e) => {
        e.currentTarget.setPointerCapture(e.pointerId);
        move(e);
      }}
      onPointerMove={(e) => {
        if (e.currentTarget.hasPointerCapture(e.pointerId)) move(e);
      }}
      onPointerUp={() => onMove(0, 0)}
      onPointerCancel={() => onMove(0, 0)}
    >
      <span className="stick-knob" style={{ left: `${50 + x * 40}%`, top: `${50 - y * 40}%` }} />
      <span className="stick-pad-label">{label}</span>
    </div>
  );
}

const toUnit = (v: number) => (v - 1500) / 500;

/**
 * Virtual-stick mode (lazy chunk): frames every VIRTUAL_UP_INTERVAL_MS from the pads and the keyboard.
 * Leaving the window, hiding the tab, losing the push connection or unmounting stops the frames with a
 * neutral one and leaves stick mode (onExit), so the drone never keeps a stale deflection.
 */
export default function StickPanel({ cmd, onExit }: { cmd: DeviceCommand; onExit: () => void }): ReactNode {
  const { t } = useI18n();
  const pushState = usePushState();
  const [sticks, setSticks] = useState<Sticks>(NEUTRAL_STICKS);
  const pads = useRef({ left: [0, 0], right: [0, 0] });
  const keys = useRef(new Set<string>());
  const rawRef = useRef(cmd.raw);
  rawRef.current = cmd.raw;
  const exitRef = useRef(onExit);
  exitRef.current = onExit;
  const sender = useMemo(() => new StickSender((s) => rawRef.current({ cmd_type: CmdType.STICK, sticks: s })), []);

  const apply = () => {
    const [yawV, throttleV] = padSticks(pads.current.left[0]!, pads.current.left[1]!);
    const [rollV, pitchV] = padSticks(pads.current.right[0]!, pads.current.right[1]!);
    const next: Sticks = { yaw: yawV, throttle: throttleV, roll: rollV, pitch: pitchV, ...keySticks(keys.current) };
    sender.set(next);
    setSticks(sender.current);
  };

  useEffect(() => {
    sender.start();
    const exit = () => {
      // Neutral frame first, then stick mode off (by the parent).
      sender.stop();
      exitRef.current();
    };
    const onKey = (down: boolean) => (e: KeyboardEvent) => {
      if (!['KeyW', 'KeyS', 'KeyA', 'KeyD', 'ArrowUp', 'ArrowDown', 'ArrowLeft', 'ArrowRight'].includes(e.code)) return;
      const target = e.target as HTMLElement | null;
      if (target && /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName)) return;
      e.preventDefault();
      if (down) keys.current.add(e.code);
      else keys.current.delete(e.code);
      apply();
    };
    const down = onKey(true);
    const up = onKey(false);
    const onVisibility = () => {
      if (document.hidden) exit();
    };
    // One signal detaches every listener when the panel closes.
    const listening = new AbortController();
    const { signal } = listening;
    window.addEventListener('keydown', down, { signal });
    window.addEventListener('keyup', up, { signal });
    window.addEventListener('blur', exit, { signal });
    document.addEventListener('visibilitychange', onVisibility, { signal });
    return () => {
      listening.abort();
      sender.stop();
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- apply reads refs only: the listeners are attached once per sender
  }, [sender]);

  useEffect(() => {
    if (pushState !== SocketState.OPEN) exitRef.current();
  }, [pushState]);

  return (
    <div className="stick-panel" data-testid="stick-panel">
      <div className="stick-pads">
        <Pad label={t('device.flight.stickLeft')} x={toUnit(sticks.yaw)} y={toUnit(sticks.throttle)} testId="stick-left" onMove={(x, y) => { pads.current.left = [x, y]; apply(); }} />
        <Pad label={t('device.flight.stickRight')} x={toUnit(sticks.roll)} y={toUnit(sticks.pitch)} testId="stick-right" onMove={(x, y) => { pads.current.right = [x, y]; apply(); }} />
      </div>
      <dl className="stick-values" data-testid="stick-values">
        {(['throttle', 'yaw', 'pitch', 'roll'] as const).map((k) => (
          <div key={k}>
            <dt>{t(`device.flight.stick.${k}`)}</dt>
            <dd data-testid={`stick-${k}`}>{sticks[k]}</dd>
          </div>
        ))}
      </dl>
      <p className="stick-keys">{t('device.flight.stickKeys')}</p>
    </div>
  );
}
