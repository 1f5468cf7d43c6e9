/** The socket-less RTMP protocol state machine and FLV muxing of node-media-server v4 (plain CommonJS, untyped). */
declare module 'node-media-server/src/protocol/rtmp.js' {
  interface RtmpPacket {
    codec_type: number;
    dts: number;
    size: number;
    data: Buffer;
  }
  class Rtmp {
    onConnectCallback: (req: { app: string; name: string; host?: string; query: Record<string, string | string[] | undefined> }) => void;
    onPlayCallback: () => void;
    onPushCallback: () => void;
    onPacketCallback: (packet: RtmpPacket) => void;
    onOutputCallback: (buffer: Buffer) => void;
    /** Feeds received bytes; a protocol error is returned as text. */
    parserData(buffer: Buffer): string | null;
  }
  export = Rtmp;
}
declare module 'node-media-server/src/protocol/flv.js' {
  class Flv {
    static createHeader(hasAudio: boolean, hasVideo: boolean): Buffer;
    static createMessage(packet: { codec_type: number; dts: number; size: number; data: Buffer }): Buffer;
  }
  export = Flv;
}
