import { ToastContainer } from 'react-toastify/unstyled';
import 'react-toastify/ReactToastify.css';
import { TOAST_MS } from './lib/constants';

/** Toasts per SPEC §2/§9: top right, themed, progress bar, 5 s auto-close (z-index/width in CSS). */
export default function AppToasts() {
  return <ToastContainer position="top-right" autoClose={TOAST_MS} hideProgressBar={false} newestOnTop closeOnClick pauseOnHover theme="dark" />;
}
