import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './shell/theme.css';
import './ui/ui.css';
import './app/app.css';
import './resources/resources.css';
import { App } from './app/app.tsx';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
