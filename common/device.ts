/** Device size classes of spec §4, by viewport width in CSS pixels. */
export const DEVICE_CLASSES = [
  { name: 'mobile', minWidth: 0 },
  { name: 'tablet', minWidth: 768 },
  { name: 'laptop', minWidth: 992 },
  { name: 'laptopLg', minWidth: 1280 },
  { name: 'desktopSm', minWidth: 1366 },
  { name: 'desktop', minWidth: 1440 },
  { name: 'desktopLg', minWidth: 1920 },
] as const;
export type DeviceClass = (typeof DEVICE_CLASSES)[number]['name'];

export function deviceClass(widthPx: number): DeviceClass {
  let found: DeviceClass = 'mobile';
  for (const entry of DEVICE_CLASSES) if (widthPx >= entry.minWidth) found = entry.name;
  return found;
}
