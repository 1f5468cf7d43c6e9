import type { ReactNode } from 'react';
import { Alert, Button, Modal, Progress, Upload } from 'antd';
import { FileOutlined, UploadOutlined } from '@ant-design/icons';
import { formatSizeKb } from '@nest/contracts';
import { useI18n } from '../i18n';
import './admin.css';

export interface UploadModalProps {
  title: string;
  width: number;
  /** The upload is under way: the dialog cannot be closed by its mask, the progress shows. */
  sending: boolean;
  /** A file was chosen and passed its checks. */
  canSend: boolean;
  onCancel: () => void;
  onSend: () => void;
  sendLabel: string;
  /** Test ids: `<testId>-send`, `<testId>-progress`. */
  testId: string;
  /** Under the progress bar: the upload percentage, then what the server does with the file. */
  progressText: ReactNode;
  percent: number;
  children: ReactNode;
}

/** The dialog of a file upload (firmware, teaching videos): the form, cancel / send, and the progress while it is sent. */
export function UploadModal({ title, width, sending, canSend, onCancel, onSend, sendLabel, testId, progressText, percent, children }: UploadModalProps): ReactNode {
  const { t } = useI18n();
  return (
    <Modal
      open
      title={title}
      onCancel={onCancel}
      mask={{ closable: !sending }}
      destroyOnHidden
      width={width}
      footer={[
        <Button key="cancel" onClick={onCancel}>
          {t('common.cancel')}
        </Button>,
        <Button key="ok" type="primary" loading={sending} disabled={!canSend} onClick={onSend} data-testid={`${testId}-send`}>
          {sendLabel}
        </Button>,
      ]}
    >
      {children}
      {sending && (
        <div data-testid={`${testId}-progress`}>
          <Progress percent={percent} status={percent < 100 ? 'active' : 'normal'} />
          <div className="upload-progress-text">{progressText}</div>
        </div>
      )}
    </Modal>
  );
}

export interface FilePickerProps {
  accept: string;
  chooseLabel: string;
  /** The chosen file, if any. */
  file: File | null;
  /** Why the chosen file cannot be sent, if it cannot. */
  problem: string | null;
  onChoose: (file: File) => void;
  /** Test ids: `<testId>-choose`, `<testId>-chosen`, `<testId>-problem`. */
  testId: string;
}

/** Choosing the one file of an upload: the button, the chosen file's name and size, and its problem. */
export function FilePicker({ accept, chooseLabel, file, problem, onChoose, testId }: FilePickerProps): ReactNode {
  return (
    <>
      <Upload
        accept={accept}
        maxCount={1}
        showUploadList={false}
        beforeUpload={(f) => {
          onChoose(f);
          // The dialog sends the file itself (with its fields and progress).
          return false;
        }}
      >
        <Button icon={<UploadOutlined />} data-testid={`${testId}-choose`}>
          {chooseLabel}
        </Button>
      </Upload>
      {file && (
        <div className="upload-chosen" data-testid={`${testId}-chosen`}>
          <FileOutlined /> {file.name} · {formatSizeKb(file.size / 1024)}
        </div>
      )}
      {problem && <Alert type="error" showIcon style={{ marginTop: 8 }} title={problem} data-testid={`${testId}-problem`} />}
    </>
  );
}
