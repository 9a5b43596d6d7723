// Command output shown in a terminal (xterm.js). A command the agent runs can print escape sequences that make
// the terminal act: OSC 8 hyperlinks to command:/vscode: targets become live links, OSC 52 writes the
// clipboard, OSC 0/2 set the title, OSC 633 fakes shell integration, DCS/APC and private modes reconfigure it.
// Only text, tab/CR/LF/BS and SGR colours pass; every other sequence is dropped (an OSC 8 link keeps its visible
// text, which lies outside the sequence). Streaming: a sequence split across chunks is dropped just the same,
// and the state kept between chunks is a few fields plus at most MAX_CSI_PARAMS characters.

const ESC = '\x1b';
/** Longer SGR parameter lists are not ordinary colours (and would make the held state grow); dropped. */
const MAX_CSI_PARAMS = 64;

const enum State {
  Ground,
  /** After ESC: the next character decides the sequence. */
  Escape,
  /** ESC followed by intermediates (ESC ( 0, ESC # 8): dropped up to its final character. */
  EscapeIntermediate,
  /** In a CSI; its parameters are kept (bounded) in case it is SGR. */
  Csi,
  /** In a CSI that is not SGR or too long: dropped up to its final character. */
  CsiIgnore,
  /** In an OSC, DCS, SOS, PM or APC string: dropped up to BEL, ST, CAN/SUB or the next ESC. */
  String,
}

/** Printable text (no C0, DEL or C1): passes as is. */
const TEXT_RUN = /[^\x00-\x1f\x7f-\x9f]+/y;
/** What can end a string: BEL, CAN, SUB, ESC (ESC \ is ST), 8-bit ST. */
const STRING_END = /[\x07\x18\x1a\x1b\x9c]/g;
const SGR_PARAMS = /^[0-9;:]*$/;

export class TerminalOutputFilter {
  private state = State.Ground;
  private csiParams = '';
  private afterCarriageReturn = false;

  /** Characters held between chunks (bounded by MAX_CSI_PARAMS). */
  get heldLength(): number {
    return this.csiParams.length;
  }

  /** The part of `chunk` a terminal may show; what a sequence still open at its end needs is kept for the next. */
  write(chunk: string): string {
    const out: string[] = [];
    let i = 0;
    while (i < chunk.length) {
      switch (this.state) {
        case State.Ground: {
          TEXT_RUN.lastIndex = i;
          if (TEXT_RUN.test(chunk)) {
            out.push(chunk.slice(i, TEXT_RUN.lastIndex));
            this.afterCarriageReturn = false;
            i = TEXT_RUN.lastIndex;
            break;
          }
          this.control(chunk[i++]!, out);
          break;
        }
        case State.Escape: {
          const c = chunk[i++]!;
          if (c === '[') this.startCsi();
          else if (c === ']' || c === 'P' || c === 'X' || c === '^' || c === '_') this.state = State.String;
          else if (c >= ' ' && c <= '/') this.state = State.EscapeIntermediate;
          else this.abortOr(c, State.Ground, out); // a final character (ESC c, ESC 7, ESC \): dropped
          break;
        }
        case State.EscapeIntermediate: {
          const c = chunk[i++]!;
          if (!(c >= ' ' && c <= '/')) this.abortOr(c, State.Ground, out);
          break;
        }
        case State.Csi:
        case State.CsiIgnore: {
          const c = chunk[i++]!;
          if (c >= '@' && c <= '~') {
            if (this.state === State.Csi && c === 'm' && SGR_PARAMS.test(this.csiParams)) out.push(`${ESC}[${this.csiParams}m`);
            this.csiParams = '';
            this.state = State.Ground;
          } else if (c >= ' ' && c <= '?') {
            if (this.state === State.Csi && this.csiParams.length < MAX_CSI_PARAMS) this.csiParams += c;
            else this.ignoreCsi();
          } else {
            this.abortOr(c, this.state, out);
            if (this.state !== State.Csi) this.csiParams = '';
          }
          break;
        }
        case State.String: {
          STRING_END.lastIndex = i;
          const end = STRING_END.exec(chunk);
          if (!end) {
            i = chunk.length;
            break;
          }
          i = end.index + 1;
          // ESC may start ST (ESC \) or a new sequence; either way the string is over.
          this.state = end[0] === ESC ? State.Escape : State.Ground;
          break;
        }
      }
    }
    return out.join('');
  }

  /** A control character met in text. */
  private control(c: string, out: string[]): void {
    switch (c) {
      case '\n':
        out.push(this.afterCarriageReturn ? '\n' : '\r\n');
        this.afterCarriageReturn = false;
        return;
      case '\r':
        out.push('\r');
        this.afterCarriageReturn = true;
        return;
      case '\t':
      case '\b':
        out.push(c);
        this.afterCarriageReturn = false;
        return;
      case ESC:
        this.state = State.Escape;
        return;
      case '\x9b':
        this.startCsi();
        return;
      case '\x9d': // OSC
      case '\x90': // DCS
      case '\x98': // SOS
      case '\x9e': // PM
      case '\x9f': // APC
        this.state = State.String;
        return;
      default:
        return; // BEL, SO/SI, VT/FF, DEL, other C1: dropped
    }
  }

  /** Inside a sequence, a control either cancels it (CAN, SUB), starts another (ESC, C1) or is dropped. */
  private abortOr(c: string, stay: State, out: string[]): void {
    if (c === '\x18' || c === '\x1a') this.state = State.Ground;
    else if (c === ESC || (c >= '\x80' && c <= '\x9f')) {
      this.state = State.Ground;
      this.control(c, out);
    } else if (c < ' ' || c === '\x7f') this.state = stay;
    else this.state = State.Ground;
  }

  private startCsi(): void {
    this.state = State.Csi;
    this.csiParams = '';
  }

  private ignoreCsi(): void {
    this.state = State.CsiIgnore;
    this.csiParams = '';
  }
}
