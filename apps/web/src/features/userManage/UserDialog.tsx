import { useEffect, useState, type ReactNode } from 'react';
import { DatePicker, Form, Input, Radio, Select, Tabs, TreeSelect } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import {
  Company,
  PASSWORD_MAX,
  PASSWORD_MIN,
  ResultCode,
  PERMANENT_END_TIME,
  PERMANENT_TEXT,
  SUPER_ADMINISTRATOR,
  calls,
  holds,
  isAccount,
  isEmail,
  isPermanentEndTime,
  type DepartmentNode,
  type FunctionItem,
  type UserListItem,
} from '@nest/contracts';
import { FormDialog } from '../../shared/dialogs';
import { useI18n } from '../../shared/i18n';
import { notify } from '../../shared/notify';
import { RequestError, call, requestStamp, sealWithPasswordKey } from '../../shared/request';
import { useUser } from '../../shared/session';
import { departmentOptions } from '../../shared/admin/tree';
import { FunctionPanel } from './FunctionPanel';

interface Values {
  nick: string;
  phone: string;
  email?: string;
  password?: string;
  validity: 'permanent' | 'range';
  range?: [Dayjs, Dayjs] | null;
  in_com_id: string;
  team?: string;
  notes?: string;
}

/** Validity of the form as start_time / end_time (seconds): permanent keeps `start` and ends at the marker. */
export function validityTimes(v: Pick<Values, 'validity' | 'range'>, start: number): { start_time: number; end_time: number } {
  if (v.validity === 'range' && v.range) return { start_time: v.range[0].unix(), end_time: v.range[1].unix() };
  return { start_time: start, end_time: PERMANENT_END_TIME };
}

/**
 * Add (user null) or edit a user: profile (nick, account, e-mail, password, validity, company, department,
 * notes) and the function assignment. The password is required on add and optional on edit (empty keeps
 * it); it is sealed with the server's key like every password.
 */
export function UserDialog({ user, onClose, onSaved }: { user: UserListItem | null; onClose: () => void; onSaved: () => void }): ReactNode {
  const { t, lang } = useI18n();
  const me = useUser();
  const editorFunctions = me?.fun_list ?? [];
  const isSuper = editorFunctions.includes(SUPER_ADMINISTRATOR);
  const self = !!user && user.u_id === me?.u_id;
  const [form] = Form.useForm<Values>();
  const [saving, setSaving] = useState(false);
  const [tab, setTab] = useState('profile');
  const [funs, setFuns] = useState<FunctionItem[] | null>(null);
  const [funList, setFunList] = useState<string[]>(user?.fun_list ?? []);
  const [teams, setTeams] = useState<DepartmentNode[] | null>(null);
  const companyId = Form.useWatch('in_com_id', form) ?? user?.in_com.id ?? me?.in_com.id ?? '';
  const validity = Form.useWatch('validity', form);
  const canListFunctions = holds(editorFunctions, calls.funList.access);
  const canListTeams = holds(editorFunctions, calls.teamList.access);

  useEffect(() => {
    if (!canListFunctions) return;
    call('funList', {}, { quiet: true })
      .then((p) => setFuns(p?.list ?? []))
      .catch(() => setFuns(null));
  }, [canListFunctions]);

  useEffect(() => {
    if (!canListTeams || !companyId) return;
    let live = true;
    call('teamList', isSuper ? { in_com_id: companyId } : {}, { quiet: true })
      .then((p) => live && setTeams(p?.list ?? []))
      .catch(() => live && setTeams([]));
    return () => {
      live = false;
    };
  }, [canListTeams, companyId, isSuper]);

  /** A user saved without any function can sign in and do nothing: asked first (not for one's own account). */
  const confirmSubmit = (v: Values) => {
    if (funList.length > 0 || self) return void submit(v);
    notify().confirm({
      title: t('userManage.fun.noneTitle'),
      content: t('userManage.fun.noneContent'),
      okText: t('userManage.fun.noneSave'),
      cancelText: t('userManage.fun.noneChoose'),
      onOk: () => submit(v),
      onCancel: () => setTab('functions'),
    });
  };

  const submit = async (v: Values) => {
    setSaving(true);
    try {
      // The envelope is bound to this one request's timestamp.
      const stamp = requestStamp();
      const password = v.password ? await sealWithPasswordKey(v.password, stamp) : '';
      const common = {
        nick: v.nick.trim(),
        phone: v.phone.trim(),
        email: (v.email ?? '').trim(),
        password,
        ...validityTimes(v, user?.start_time ?? Math.floor(Date.now() / 1000)),
        team: v.team ?? '',
        notes: (v.notes ?? '').trim(),
        in_com_id: v.in_com_id,
        fun_json: JSON.stringify(funList),
      };
      if (user) await call('userEdit', { u_id: user.u_id, state: user.state, ...common }, { timestamp: stamp });
      else await call('userAdd', common, { timestamp: stamp });
      notify().success(t('admin.saved'));
      onSaved();
    } catch (err) {
      // Call failures were shown by the request layer (a password refused as too common is said on its field
      // too); sealing failures (keys unavailable) are shown here.
      if (!(err instanceof RequestError)) notify().error(t('request.network'));
      else if (err.code === ResultCode.PASSWORD_COMMON) {
        setTab('profile');
        form.setFields([{ name: 'password', errors: [err.text] }]);
      }
    } finally {
      setSaving(false);
    }
  };

  const permanent = !user || isPermanentEndTime(user.end_time);
  const initial: Values = {
    nick: user?.nick ?? '',
    phone: user?.phone ?? '',
    email: user?.email ?? '',
    password: '',
    validity: permanent ? 'permanent' : 'range',
    range: user && !permanent ? [dayjs.unix(user.start_time), dayjs.unix(user.end_time)] : null,
    in_com_id: user?.in_com.id ?? me?.in_com.id ?? '',
    team: user?.team || undefined,
    notes: user?.notes ?? '',
  };
  const teamOptions = teams ? departmentOptions(teams) : [];
  const passwordRules = [
    ...(user ? [] : [{ required: true, message: t('userManage.rule.passwordRequired') }]),
    { min: PASSWORD_MIN, max: PASSWORD_MAX, message: t('userManage.rule.passwordLength', { min: PASSWORD_MIN, max: PASSWORD_MAX }) },
  ];

  const profile = (
    <>
      <Form.Item name="nick" label={t('userManage.field.nick')} rules={[{ required: true, whitespace: true, message: t('userManage.rule.nickRequired') }]}>
        <Input maxLength={64} placeholder={t('userManage.placeholder.nick')} data-testid="user-nick" />
      </Form.Item>
      <Form.Item
        name="phone"
        label={t('userManage.field.account')}
        rules={[
          { required: true, whitespace: true, message: t('userManage.rule.accountRequired') },
          {
            validator: (_r, value: string | undefined) =>
              !value?.trim() || isAccount(value.trim()) ? Promise.resolve() : Promise.reject(new Error(t('userManage.rule.accountFormat'))),
          },
        ]}
      >
        <Input maxLength={128} placeholder={t('userManage.placeholder.account')} autoComplete="off" data-testid="user-account" />
      </Form.Item>
      <Form.Item
        name="email"
        label={t('userManage.field.email')}
        rules={[
          {
            validator: (_r, value: string | undefined) =>
              !value?.trim() || isEmail(value.trim()) ? Promise.resolve() : Promise.reject(new Error(t('userManage.rule.emailFormat'))),
          },
        ]}
      >
        <Input maxLength={128} placeholder={t('userManage.placeholder.email')} autoComplete="off" data-testid="user-email" />
      </Form.Item>
      <Form.Item name="password" label={t('userManage.field.password')} rules={passwordRules} extra={user ? t('userManage.passwordKeepHint') : undefined}>
        <Input.Password
          placeholder={user ? t('userManage.placeholder.passwordEdit') : t('userManage.placeholder.password')}
          autoComplete="new-password"
          data-testid="user-password"
        />
      </Form.Item>
      <Form.Item name="validity" label={t('userManage.field.validity')}>
        <Radio.Group
          disabled={self}
          options={[
            { value: 'permanent', label: PERMANENT_TEXT[lang] },
            { value: 'range', label: t('userManage.validityRange') },
          ]}
          data-testid="user-validity"
        />
      </Form.Item>
      {validity === 'range' && (
        <Form.Item
          name="range"
          label={t('userManage.validityRange')}
          rules={[
            { required: true, message: t('userManage.rule.rangeRequired') },
            {
              validator: (_r, v: [Dayjs, Dayjs] | null | undefined) =>
                !v || v[1].isAfter(v[0]) ? Promise.resolve() : Promise.reject(new Error(t('userManage.rule.endAfterStart'))),
            },
          ]}
        >
          <DatePicker.RangePicker showTime={{ format: 'HH:mm' }} format="YYYY-MM-DD HH:mm" disabled={self} style={{ width: '100%' }} data-testid="user-range" />
        </Form.Item>
      )}
      <Form.Item name="in_com_id" label={t('userManage.field.company')}>
        <Select
          disabled={!isSuper || self}
          options={Company.options(lang)}
          onChange={() => form.setFieldValue('team', undefined)}
          data-testid="user-company"
        />
      </Form.Item>
      <Form.Item
        name="team"
        label={t('userManage.field.team')}
        extra={!canListTeams ? t('userManage.noTeamPermission') : teams && teamOptions.length === 0 ? t('userManage.noTeams') : undefined}
      >
        <TreeSelect
          allowClear
          showSearch
          treeNodeFilterProp="title"
          treeDefaultExpandAll
          disabled={!canListTeams}
          treeData={teamOptions}
          placeholder={t('userManage.placeholder.team')}
          data-testid="user-team"
        />
      </Form.Item>
      <Form.Item name="notes" label={t('userManage.field.notes')}>
        <Input.TextArea maxLength={500} autoSize={{ minRows: 1, maxRows: 4 }} data-testid="user-notes" />
      </Form.Item>
    </>
  );

  return (
    <FormDialog<Values>
      title={user ? t('userManage.editTitle', { name: user.nick }) : t('userManage.addTitle')}
      testId="user-dialog"
      submitTestId="user-submit"
      submitText={t('common.save')}
      saving={saving}
      form={form}
      initialValues={initial}
      width={920}
      onFinish={confirmSubmit}
      // Field errors are all on the profile tab: show it, or they would go unseen.
      onFinishFailed={() => setTab('profile')}
      onClose={onClose}
    >
      <Tabs
        activeKey={tab}
        onChange={setTab}
        items={[
          { key: 'profile', label: t('userManage.tab.profile'), children: profile, forceRender: true },
          {
            key: 'functions',
            label: t('userManage.tab.functions', { count: funList.length }),
            children: <FunctionPanel funs={funs} value={funList} onChange={setFunList} editorFunctions={editorFunctions} readOnly={self} />,
          },
        ]}
      />
    </FormDialog>
  );
}
