// A QR code drawn as SVG in the page (qrcode-generator computes the modules locally:
// the secret never leaves the browser for an image service).
import qrcode from 'qrcode-generator';

export function QrCode({ text, label, size = 200 }: { text: string; label: string; size?: number }) {
  const qr = qrcode(0, 'M');
  qr.addData(text);
  qr.make();
  const count = qr.getModuleCount();
  const quiet = 4;
  const cells: string[] = [];
  for (let row = 0; row < count; row += 1) {
    for (let col = 0; col < count; col += 1) if (qr.isDark(row, col)) cells.push(`M${col + quiet} ${row + quiet}h1v1h-1z`);
  }
  const extent = count + quiet * 2;
  return (
    <svg role="img" aria-label={label} width={size} height={size} viewBox={`0 0 ${extent} ${extent}`} shapeRendering="crispEdges" className="qr-code">
      <rect width={extent} height={extent} fill="#fff" />
      <path d={cells.join('')} fill="#000" />
    </svg>
  );
}
