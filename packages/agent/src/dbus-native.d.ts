/** The part of @homebridge/dbus-native (no types of its own) the tray uses. */
declare module '@homebridge/dbus-native' {
  import type { EventEmitter } from 'node:events';

  interface Message {
    destination: string;
    path: string;
    interface: string;
    member: string;
    signature?: string;
    body?: unknown[];
  }
  interface InterfaceDescription {
    name: string;
    methods: Record<string, [string, string]>;
    properties: Record<string, string>;
    signals: Record<string, string[]>;
  }
  export interface MessageBus {
    connection: EventEmitter & { end(): void };
    invoke(message: Message, callback: (error: unknown, ...answer: unknown[]) => void): void;
    requestName(name: string, flags: number, callback: (error: unknown, code: number) => void): void;
    exportInterface(object: object, path: string, description: InterfaceDescription): void;
  }
  export function sessionBus(options: { busAddress: string }): MessageBus;
}
