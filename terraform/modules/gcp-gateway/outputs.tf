output "gateway_url" {
  description = "HTTPS URL of the gateway (OpenAI base URL = this + \"/v1\")."
  value       = google_cloud_run_v2_service.gateway.uri
}

output "service_account_email" {
  description = "Identity the gateway runs as (roles/aiplatform.user, roles/cloudsql.client, accessor on its own secrets)."
  value       = google_service_account.gateway.email
}

output "database_instance" {
  description = "Cloud SQL instance connection name (project:region:instance)."
  value       = google_sql_database_instance.gecit.connection_name
}

output "database_private_ip" {
  description = "Private IP of the Cloud SQL instance (no public IP exists)."
  value       = google_sql_database_instance.gecit.private_ip_address
}

output "admin_key_secret" {
  description = "Secret Manager secret id holding the gateway's admin key (read it with `gcloud secrets versions access latest --secret=...`)."
  value       = google_secret_manager_secret.admin_key.secret_id
}

output "vpc_connector" {
  description = "Serverless VPC Access connector id; its range (connector_cidr) must be allowed by the on-prem firewall."
  value       = google_vpc_access_connector.gateway.id
}
