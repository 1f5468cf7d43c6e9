import { Suspense, lazy, type ReactNode } from 'react';
import { Modal, Pagination, Spin } from 'antd';
import { PlayCircleOutlined } from '@ant-design/icons';
import { tablePagination, type PagedList } from './usePagedList';
import './videoCards.css';

const VideoPlayer = lazy(() => import('../video/VideoPlayer'));

export interface VideoCardListProps<T> {
  items: T[];
  loading: boolean;
  /** What an empty list shows (an Empty's description and content). */
  empty: ReactNode;
  testId?: string;
  /** A class for the list, for a feature's own card styles. */
  className?: string;
  children: (item: T) => ReactNode;
}

/**
 * A grid of video cards (teaching videos, recordings): a spinner while the first page is read, the `empty`
 * content when there is nothing, otherwise the cards with a spinner over them while the next page is read.
 */
export function VideoCardList<T>({ items, loading, empty, testId, className, children }: VideoCardListProps<T>): ReactNode {
  if (loading && items.length === 0) {
    return (
      <div className="video-cards__state">
        <Spin />
      </div>
    );
  }
  if (items.length === 0) return <div className="video-cards__state">{empty}</div>;
  return (
    <Spin spinning={loading}>
      <ul className={className ? `video-cards ${className}` : 'video-cards'} data-testid={testId}>
        {items.map(children)}
      </ul>
    </Spin>
  );
}

export interface VideoCardProps {
  testId: string;
  /** The poster image, if any; otherwise `noPoster` fills its place. */
  poster: string | null | undefined;
  noPoster?: ReactNode;
  playLabel: string;
  onPlay: () => void;
  /** The length shown on the poster (already formatted), if known. */
  duration: string | null;
  title: string;
  /** The small tag beside the title (a kind, a camera). */
  tag: ReactNode;
  /** The info under the title. */
  children: ReactNode;
  /** Buttons along the card's bottom, if any. */
  actions?: ReactNode;
}

/** One video card: the poster with a play button and the length, the title with a tag, the info and actions. */
export function VideoCard({ testId, poster, noPoster, playLabel, onPlay, duration, title, tag, children, actions }: VideoCardProps): ReactNode {
  return (
    <li className="video-card" data-testid={testId}>
      <button type="button" className="video-card__poster" onClick={onPlay} aria-label={playLabel}>
        {poster ? <img src={poster} alt="" loading="lazy" /> : <span className="video-card__noposter">{noPoster}</span>}
        <PlayCircleOutlined className="video-card__play" />
        {duration !== null && <span className="video-card__duration">{duration}</span>}
      </button>
      <div className="video-card__info">
        <div className="video-card__title">
          <span title={title}>{title}</span>
          <em>{tag}</em>
        </div>
        {children}
      </div>
      {actions && <div className="video-card__actions">{actions}</div>}
    </li>
  );
}

export interface VideoDialogProps {
  /** The video to play, or null when the dialog is closed. */
  url: string | null;
  title: string;
  onClose: () => void;
  muted?: boolean;
  testId: string;
  /** Shown under the player (a description). */
  children?: ReactNode;
}

/** Plays one recorded video in a dialog; the player is loaded when the dialog first opens. */
export function VideoDialog({ url, title, onClose, muted, testId, children }: VideoDialogProps): ReactNode {
  return (
    <Modal open={url !== null} onCancel={onClose} footer={null} width={880} destroyOnHidden title={title}>
      {url !== null && (
        <Suspense fallback={<div className="video-player" />}>
          <VideoPlayer url={url} live={false} muted={muted} controls testId={testId} />
          {children}
        </Suspense>
      )}
    </Modal>
  );
}

export interface VideoCardPagerProps<T> {
  list: PagedList<T>;
  /** The "{total} in all" text. */
  showTotal: (total: number) => string;
  /** The small pager (as the administration tables have), or antd's usual one. */
  small?: boolean;
}

/** The pager under a grid of video cards (one page of a usePagedList), at its right. */
export function VideoCardPager<T>({ list, showTotal, small = false }: VideoCardPagerProps<T>): ReactNode {
  return (
    <footer className="video-cards__foot">
      <Pagination {...tablePagination(list, showTotal)} size={small ? 'small' : undefined} />
    </footer>
  );
}
