import type { FeatureCatalog } from './zh-CN';
import { deviceTypeEn } from '../../features/deviceType/messages';
import { auditLogEn } from '../../features/auditLog/messages';
import { firmwareEn } from '../../features/firmware/messages';
import { teachingVideosEn } from '../../features/teachingVideos/messages';
import { resultsEn } from '../../features/results/messages';
import { userManageEn } from '../../features/userManage/messages';
import { dictDataEn } from '../../features/dictData/messages';
import { teamManageEn } from '../../features/teamManage/messages';
import { outLineMapEn } from '../../features/outLineMap/messages';
import { maintenanceEn } from '../../features/equipment/maintenance/messages';
import { googleMapEn } from '../../features/googleMap/messages';
import { networkEn } from '../../features/networkingItem/messages';
import { navigationEnvironmentEn } from '../../features/navigationEnvironment/messages';
import { routeReplayEn } from '../../features/routeReplay/messages';
import { analysisEn } from '../../features/dataAnalyse/messages';
import { alarmsEn } from '../../features/alarms/messages';
import { homeEn } from '../../features/home/messages';
import { loginEn } from '../login/messages';
import { deviceEn } from '../../features/device/messages';
import { fleetEn } from '../../shared/fleet/messages';
import { equipmentEn } from '../../features/equipment/messages';
import { pilotEn } from '../../features/pilot/messages';
import { coordinationEn } from '../../features/coordination/messages';
import { taskManageEn } from '../../features/taskManage/messages';
import { routeplanEn } from '../../features/routeplan';

/** English catalog: the same keys as `zh-CN.ts` (checked by the compiler and by a unit test). */
export const enUS: FeatureCatalog = {
  route: {
    login: 'Sign in',
    layout: 'Console',
    home: 'Data screen',
    routeReplay: 'Result replay',
    videoList: 'Outside camera recordings',
    dataAnalyse: 'Data analysis',
    panorama: 'Panorama',
    notFound: 'Page not found',
  },
  admin: {
    search: 'Search',
    searchPlaceholder: 'Search by keyword',
    add: 'Add',
    edit: 'Edit',
    delete: 'Delete',
    recover: 'Recover',
    actions: 'Actions',
    state: 'State',
    notes: 'Notes',
    createTime: 'Created',
    modifiedTime: 'Modified',
    total: '{total} in all',
    all: 'All',
    saved: 'Saved',
    deleted: 'Deleted',
    confirmDelete: 'Delete "{name}"?',
    refresh: 'Refresh',
    required: 'Please enter {field}',
    noPermission: 'You are not allowed to do this',
  },
  coming: {
    badge: 'In progress',
    subtitle: 'This screen is being built',
    description: 'This module is under development and will open here once it is ready.',
    backHome: 'Back to home',
  },
  notFound: {
    description: 'The page you requested does not exist or has been removed',
    backHome: 'Back to home',
  },
  header: {
    news: {
      label: 'Messages',
      title: 'Notifications',
      empty: 'There are no new messages',
    },
    push: {
      label: 'Live link',
      connecting: 'Connecting',
      open: 'Connected',
      closing: 'Closing',
      closed: 'Not connected',
    },
    user: {
      account: 'Account information',
      info: 'View info',
      password: 'Change password',
      logout: 'Sign out',
    },
    logout: {
      title: 'Sign out',
      content: 'Do you want to sign out of this account?',
    },
    nav: {
      solutionWarning: 'Solutions are not available online yet; please contact us',
      openInNewTab: 'Open in new tab',
    },
  },
  account: {
    title: 'Account information',
    nick: 'Nickname',
    account: 'Account',
    accountPlaceholder: 'Phone or e-mail',
    nickPlaceholder: 'Please enter account nickname',
    company: 'Company',
    startTime: 'Start time',
    endTime: 'End time',
    nickRequired: 'Please enter account nickname',
    accountRequired: 'Please enter user phone / e-mail',
    accountFormat: 'Please enter a valid phone number or e-mail address',
    saved: 'Account information updated',
  },
  info: {
    title: 'User information',
  },
  password: {
    title: 'Change password',
    old: 'Old password',
    new: 'New password',
    confirm: 'Confirm password',
    oldPlaceholder: 'Enter the old password',
    newPlaceholder: 'Enter the new password',
    confirmPlaceholder: 'Enter the new password again',
    oldRequired: 'Please enter the old password',
    newRequired: 'Please enter the new password',
    confirmRequired: 'Please enter the new password again',
    length: 'The password must be {min} to {max} characters',
    mismatch: 'The two passwords do not match',
    submit: 'Change password',
    successTitle: 'Password changed',
    successContent: 'Please sign in again with the new password',
  },
  settings: {
    title: 'System settings',
    language: 'Language',
    languageZh: '中文',
    languageEn: 'English',
    theme: 'Theme',
    themeDefault: 'Default',
    themeConcise: 'Concise',
    themeDefaultHint: 'Dark operations console',
    themeConciseHint: 'Clean light interface',
  },
  videoList: {
    title: 'Outside camera recordings',
    device: 'Device',
    camera: 'Camera',
    start: 'Start',
    end: 'End',
    size: 'Size',
    play: 'Play',
    refresh: 'Refresh',
    empty: 'No recordings yet',
    total: '{total} in total',
  },
  routeplan: routeplanEn,
  results: resultsEn,
  routeReplay: routeReplayEn,
  analysis: analysisEn,
  alarms: alarmsEn,
  home: homeEn,
  login: loginEn,
  device: deviceEn,
  fleet: fleetEn,
  userManage: userManageEn,
  dictData: dictDataEn,
  teamManage: teamManageEn,
  equipment: equipmentEn,
  pilot: pilotEn,
  maintenance: maintenanceEn,
  coordination: coordinationEn,
  taskManage: taskManageEn,
  outLineMap: outLineMapEn,
  googleMap: googleMapEn,
  network: networkEn,
  navigationEnvironment: navigationEnvironmentEn,
  deviceType: deviceTypeEn,
  auditLog: auditLogEn,
  firmware: firmwareEn,
  teachingVideos: teachingVideosEn,
};
