import { PlaceholderPage } from './PlaceholderPage';

export default function SupportPage() {
  return <PlaceholderPage title="Support" lead="Contact us, share feedback or report a bug." />;
}
