// What ffprobe (Debian's ffmpeg) reads in a recording: the container, its length, and the video frames
// it decodes, so a test knows a WebM plays, not only that a file was written.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

/** @param {string} path */
export async function probe(path) {
  const { stdout } = await promisify(execFile)('ffprobe', ['-v', 'error', '-count_frames', '-select_streams', 'v:0',
    '-show_entries', 'stream=codec_name,nb_read_frames:format=duration,format_name', '-of', 'json', path]);
  const j = JSON.parse(stdout);
  return { format: String(j.format?.format_name ?? ''), seconds: Number(j.format?.duration), codec: String(j.streams?.[0]?.codec_name ?? ''), frames: Number(j.streams?.[0]?.nb_read_frames) };
}
