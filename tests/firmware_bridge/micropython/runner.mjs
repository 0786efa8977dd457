// The Pico under MicroPython's WebAssembly port, in node: the firmware files and the MicroPython
// stand-ins (machine, neopixel, picoboard, picohost) in MicroPython's file system, the serial
// port on PORT_FD (a pty's master, made non-blocking by the host), the person's commands as lines
// on CONTROL_FD (non-blocking too), and what the board shows ("leds 0101...", "mem ALLOC FREE") as lines on stdout.
//
//   node runner.mjs MICROPYTHON_MJS HEAP_BYTES BOOT_ID OCCUPIED PORT_FD CONTROL_FD FILE...
//
// OCCUPIED is a comma-separated list of point indices ("" for none). It runs until CONTROL_FD closes
// or says "quit".
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const [mjs, heap, bootId, onWood, portFd, controlFd, ...files] = process.argv.slice(2);
const PORT = Number(portFd);
const CONTROL = Number(controlFd);
const TICKS_PERIOD = 1 << 30; // MicroPython's ticks_ms() wraps here

const pause = new Int32Array(new SharedArrayBuffer(4));
function sleepMs(ms) {
  Atomics.wait(pause, 0, 0, ms);
}

function readSome(fd, buffer) {
  try {
    return fs.readSync(fd, buffer, 0, buffer.length, null);
  } catch (err) {
    if (err.code === "EAGAIN" || err.code === "EIO") return -1; // nothing now / no reader yet
    throw err;
  }
}

const portBuffer = Buffer.alloc(512);
const hostlink = {
  port_read() {
    const n = readSome(PORT, portBuffer);
    return n > 0 ? portBuffer.subarray(0, n).toString("hex") : "";
  },
  port_write(hex) {
    const data = Buffer.from(hex, "hex");
    let done = 0;
    let waited = 0;
    while (done < data.length) {
      try {
        done += fs.writeSync(PORT, data, done);
      } catch (err) {
        if (err.code !== "EAGAIN" && err.code !== "EIO") throw err;
        // Nobody reading: a USB CDC port stalls the same way; give up after 200 ms.
        if (++waited > 200) return;
        sleepMs(1);
      }
    }
  },
  ticks_ms() {
    return Math.floor(performance.now()) % TICKS_PERIOD;
  },
  emit(line) {
    fs.writeSync(1, line + "\n");
  },
};

const { loadMicroPython } = await import(pathToFileURL(mjs).href);
const mp = await loadMicroPython({
  heapsize: Number(heap),
  stdout: (text) => fs.writeSync(2, text),
  stderr: (text) => fs.writeSync(2, text),
  linebuffer: false,
});
mp.registerJsModule("hostlink", hostlink);
for (const file of files) {
  mp.FS.writeFile("/" + path.basename(file), fs.readFileSync(file));
}
mp.runPython("import sys\nif '/' not in sys.path: sys.path.insert(0, '/')");
mp.runPython(`import picohost\npicohost.boot(${Number(bootId)}, [${onWood}])`);
const pico = mp.pyimport("picohost");

const controlBuffer = Buffer.alloc(4096);
let pending = "";
for (;;) {
  const n = readSome(CONTROL, controlBuffer);
  if (n === 0) break; // the host closed the control pipe: power off
  if (n > 0) {
    pending += controlBuffer.subarray(0, n).toString("utf8");
    let newline;
    while ((newline = pending.indexOf("\n")) >= 0) {
      const line = pending.slice(0, newline).trim();
      pending = pending.slice(newline + 1);
      if (line === "quit") process.exit(0);
      pico.command(line);
    }
  }
  pico.step(hostlink.ticks_ms());
  sleepMs(1);
}
