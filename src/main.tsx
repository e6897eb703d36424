import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './gpu/shaders-vite';
import { App } from './ui/App';
import { readUrlIntoStore } from './ui/bootstrap';
import './ui/app.css';

readUrlIntoStore(window.location.search);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
