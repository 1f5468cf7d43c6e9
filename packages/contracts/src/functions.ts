/**
 * Function ids (permissions). A user's fun_list holds some of them; super_administrator holds all.
 * Menu entries require `menu_<name>`; protected calls require the id named in the call registry.
 */
export const SUPER_ADMINISTRATOR = 'super_administrator';
/** Enables the push connection (SPEC section 6). */
export const DEVICE_PUSH_FUNCTION = 'device_10';

/**
 * Flying a device (push 401 control, 473 process control) and taking its control connection
 * (/device/connect): the function of the /device/connect call. A command is carried out only while the
 * sender also holds the device's control connection.
 */
export const DEVICE_CONTROL_FUNCTION = 'device_connect';

export const menuFunId = (menuName: string): string => `menu_${menuName}`;
/** '/device/uav/type' -> 'device_uav_type' */
export const callFunId = (path: string): string => path.replace(/^\//, '').replace(/\//g, '_');

export function holds(funList: readonly string[] | undefined, funId: string | null | undefined): boolean {
  if (!funId) return true;
  if (!funList) return false;
  return funList.includes(SUPER_ADMINISTRATOR) || funList.includes(funId);
}

/**
 * A function id as /fun/add accepts it: a letter, then letters, digits and underscores (the shape of
 * `menu_<name>` and of `callFunId` paths), at most 64 characters. It travels in JSON lists and is shown in
 * the console, so nothing else is allowed.
 */
export const FUN_ID_PATTERN = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;
export const isFunId = (id: string): boolean => FUN_ID_PATTERN.test(id);
