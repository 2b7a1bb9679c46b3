import { PlaceholderPage } from './PlaceholderPage';

export default function CreateWorldPage() {
  return <PlaceholderPage title="Create a World" lead="Describe your universe and let Taleforge help you shape it." />;
}
