import { EventEmitter } from 'node:events';
import { type MessageBus, sessionBus } from '@homebridge/dbus-native';
import { type AgentStatus, clearPause, readPause, writePause } from './control.js';

/**
 * The agent in the desktop's tray, where the desktop has one: a StatusNotifierItem on the session
 * bus (the tray of KDE, Xfce, LXQt, Cinnamon and of GNOME with its AppIndicator extension), whose
 * icon and tooltip say whether it records, is paused or offline, and whose click pauses or resumes
 * it as `sundial-agent pause` and `resume` do (through the state folder, which `run` reads every
 * poll). Without a session bus or a tray there is none, and the terminal and `sundial-agent status`
 * say the same.
 */
export interface Tray {
  update(status: AgentStatus): void;
  close(): void;
}

const WATCHER = {
  destination: 'org.kde.StatusNotifierWatcher',
  path: '/StatusNotifierWatcher',
  interface: 'org.kde.StatusNotifierWatcher',
};
export const TRAY_ITEM_PATH = '/StatusNotifierItem';
const ITEM_INTERFACE = 'org.kde.StatusNotifierItem';
/** A tray host takes an item's name when it answers at once; a bus that hangs gives up here. */
const ANSWER_MS = 2_000;

/** How each state shows: the icon (freedesktop icon names every theme has), the item's status, a word. */
const LOOKS: Record<AgentStatus['state'], { icon: string; status: 'Active' | 'NeedsAttention'; word: string }> = {
  starting: { icon: 'media-record', status: 'Active', word: 'starting' },
  waiting: { icon: 'media-record', status: 'Active', word: 'waiting for the settings' },
  tracking: { icon: 'media-record', status: 'Active', word: 'recording' },
  paused: { icon: 'media-playback-pause', status: 'Active', word: 'paused' },
  offline: { icon: 'network-offline', status: 'NeedsAttention', word: 'offline' },
  unpaired: { icon: 'dialog-warning', status: 'NeedsAttention', word: 'not paired' },
};

function call(bus: MessageBus, message: Parameters<MessageBus['invoke']>[0]): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ANSWER_MS);
    bus.invoke(message, (error) => {
      clearTimeout(timer);
      resolve(!error);
    });
  });
}

function takeName(bus: MessageBus, name: string): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ANSWER_MS);
    // 4: do not queue; 1 is "now the owner".
    bus.requestName(name, 4, (error, code) => {
      clearTimeout(timer);
      resolve(!error && code === 1);
    });
  });
}

/**
 * Shows the agent in the tray; null when this desktop has none (no session bus at `busAddress`, or
 * no StatusNotifierWatcher on it). `toggled` hears each click (after the pause was written).
 */
export async function startTray(options: {
  busAddress: string | undefined;
  stateDir: string;
  toggled?: (paused: boolean) => void;
}): Promise<Tray | null> {
  if (!options.busAddress) return null;
  let bus: MessageBus;
  try {
    bus = sessionBus({ busAddress: options.busAddress });
  } catch {
    return null;
  }
  // A bus that goes away takes the tray with it, never the agent.
  bus.connection.on('error', () => {});
  const item = Object.assign(new EventEmitter(), {
    Category: 'ApplicationStatus',
    Id: 'sundial-agent',
    Title: 'Sundial',
    Status: 'Active',
    IconName: LOOKS.starting.icon,
    ToolTip: [LOOKS.starting.icon, [], 'Sundial', 'starting'] as [string, unknown[], string, string],
    ItemIsMenu: false,
    /** A click pauses recording until the next click, or resumes it. */
    Activate: () => toggle(),
    SecondaryActivate: () => toggle(),
    ContextMenu: () => {},
    Scroll: () => {},
  });
  const toggle = () => {
    const paused = readPause(options.stateDir, new Date()) !== false;
    if (paused) clearPause(options.stateDir);
    else writePause(options.stateDir, null);
    options.toggled?.(!paused);
  };
  bus.exportInterface(item, TRAY_ITEM_PATH, {
    name: ITEM_INTERFACE,
    methods: { Activate: ['ii', ''], SecondaryActivate: ['ii', ''], ContextMenu: ['ii', ''], Scroll: ['is', ''] },
    properties: {
      Category: 's',
      Id: 's',
      Title: 's',
      Status: 's',
      IconName: 's',
      ToolTip: '(sa(iiay)ss)',
      ItemIsMenu: 'b',
    },
    signals: { NewTitle: [], NewIcon: [], NewToolTip: [], NewStatus: ['s'] },
  });
  const name = `org.kde.StatusNotifierItem-${process.pid}-1`;
  const shown =
    (await takeName(bus, name)) &&
    (await call(bus, { ...WATCHER, member: 'RegisterStatusNotifierItem', signature: 's', body: [name] }));
  if (!shown) {
    bus.connection.end();
    return null;
  }
  let last = '';
  return {
    update(status) {
      const look = LOOKS[status.state];
      const title = `Sundial: ${look.word}`;
      const text = `${status.detail} · ${status.queued} span${status.queued === 1 ? '' : 's'} to upload${
        status.state === 'paused' ? ' · click to resume' : status.state === 'tracking' ? ' · click to pause' : ''
      }`;
      const seen = `${title}\u0000${text}\u0000${look.icon}\u0000${look.status}`;
      if (seen === last) return;
      last = seen;
      const changed = {
        icon: item.IconName !== look.icon,
        status: item.Status !== look.status,
        title: item.Title !== title,
      };
      Object.assign(item, {
        Title: title,
        IconName: look.icon,
        Status: look.status,
        ToolTip: [look.icon, [], title, text],
      });
      if (changed.title) item.emit('NewTitle');
      if (changed.icon) item.emit('NewIcon');
      if (changed.status) item.emit('NewStatus', look.status);
      item.emit('NewToolTip');
    },
    close() {
      bus.connection.end();
    },
  };
}
