import type { BoundedDownloader } from '../../core/ports/bounded-downloader';
import { boundedDownload } from './bounded-download';

/** P13: the chat front ends' downloads, over `fetch` (`boundedDownload`). */
export const httpDownloader: BoundedDownloader = { download: boundedDownload };
