variable "name" {
  description = "Name prefix for every resource (lower-case letters, digits and hyphens, at most 20 characters)."
  type        = string
  default     = "gecit"

  validation {
    condition     = can(regex("^[a-z][a-z0-9-]{0,18}[a-z0-9]$", var.name))
    error_message = "name must be 2-20 characters of a-z, 0-9 and '-', starting with a letter."
  }
}

variable "region" {
  description = "AWS region of the deployment and of the Bedrock endpoint the gateway calls (Frankfurt by default)."
  type        = string
  default     = "eu-central-1"
}

variable "vpc_id" {
  description = "Existing VPC. Its route tables carry the VPN / Direct Connect routes to the on-prem GPU node."
  type        = string
}

variable "private_subnet_ids" {
  description = "Private subnets (at least two AZs) for the Fargate tasks and the RDS instance. Tasks reach Bedrock and other clouds through a NAT gateway or VPC endpoints of these subnets."
  type        = list(string)

  validation {
    condition     = length(var.private_subnet_ids) >= 2
    error_message = "Give at least two private subnets in different availability zones."
  }
}

variable "alb_subnet_ids" {
  description = "Subnets for the load balancer: private subnets for an internal ALB (default), public subnets when alb_internal is false."
  type        = list(string)

  validation {
    condition     = length(var.alb_subnet_ids) >= 2
    error_message = "An ALB needs subnets in at least two availability zones."
  }
}

variable "alb_internal" {
  description = "Create an internal ALB (reachable from the VPC, peered networks and on-prem over VPN). Set false to expose the gateway to the internet."
  type        = bool
  default     = true
}

variable "alb_ingress_cidrs" {
  description = "IPv4 CIDR blocks allowed to reach the ALB on HTTPS (443). These are callers of the gateway, never of the database."
  type        = list(string)

  validation {
    condition     = length(var.alb_ingress_cidrs) > 0 && alltrue([for c in var.alb_ingress_cidrs : can(cidrhost(c, 0))])
    error_message = "alb_ingress_cidrs must be a non-empty list of CIDR blocks."
  }
}

variable "certificate_arn" {
  description = "ACM certificate for domain_name, used by the HTTPS listener."
  type        = string
}

variable "domain_name" {
  description = "DNS name clients use for the gateway (must match certificate_arn). The gateway URL is https://<domain_name>."
  type        = string
}

variable "route53_zone_id" {
  description = "Route 53 hosted zone in which to create an alias record for domain_name; null to manage DNS elsewhere."
  type        = string
  default     = null
}

variable "onprem_cidrs" {
  description = "CIDR blocks of the on-prem inference node(s) (Ollama / vLLM / llama.cpp) reachable over VPN or Direct Connect."
  type        = list(string)
  default     = []
}

variable "onprem_ports" {
  description = "TCP ports of the on-prem inference servers the gateway may call (Ollama 11434, vLLM 8000 by default)."
  type        = list(number)
  default     = [11434, 8000]
}

variable "image" {
  description = "Gateway image (built from infra/Dockerfile), e.g. ACCOUNT.dkr.ecr.eu-central-1.amazonaws.com/gecit:0.1.0. Prefer an immutable digest."
  type        = string
}

variable "ecr_repository_arn" {
  description = "ARN of the ECR repository holding image, so the execution role may pull only from it; null when the image is in a public registry."
  type        = string
  default     = null
}

variable "bedrock_model_arns" {
  description = "Bedrock foundation-model and inference-profile ARNs the gateway may invoke (Converse / ConverseStream / InvokeModel / InvokeModelWithResponseStream). For a cross-region inference profile list the profile ARN and the foundation-model ARN in every region it routes to."
  type        = list(string)

  validation {
    condition     = length(var.bedrock_model_arns) > 0 && alltrue([for a in var.bedrock_model_arns : can(regex("^arn:aws[a-z-]*:bedrock:[a-z0-9-]*:[0-9]*:(foundation-model|inference-profile|application-inference-profile|provisioned-model)/[^*]+$", a))])
    error_message = "bedrock_model_arns must be non-empty Bedrock model or inference-profile ARNs without wildcards."
  }
}

variable "desired_count" {
  description = "Initial number of gateway tasks (replicas)."
  type        = number
  default     = 2
}

variable "min_count" {
  description = "Lower bound for autoscaling of gateway tasks."
  type        = number
  default     = 2
}

variable "max_count" {
  description = "Upper bound for autoscaling of gateway tasks. Keep it within the database's connection limit."
  type        = number
  default     = 10
}

variable "task_cpu" {
  description = "Fargate task CPU units (1024 = 1 vCPU)."
  type        = number
  default     = 1024
}

variable "task_memory" {
  description = "Fargate task memory in MiB."
  type        = number
  default     = 2048
}

variable "idle_timeout_seconds" {
  description = "ALB idle timeout; must exceed the longest pause between streamed chunks (first-token wait included)."
  type        = number
  default     = 300
}

variable "stop_timeout_seconds" {
  description = "Seconds ECS waits after SIGTERM before SIGKILL, so in-flight streams can drain (max 120 on Fargate)."
  type        = number
  default     = 120
}

variable "secret_env" {
  description = "Extra environment variables from existing Secrets Manager secrets, as ENV_NAME => secret ARN (e.g. { REPLICATE_API_TOKEN = \"arn:aws:secretsmanager:...\" }). Their values are set outside Terraform, so they never enter state. Secrets encrypted with another KMS key also need kms:Decrypt for the execution role."
  type        = map(string)
  default     = {}
}

variable "db_instance_class" {
  description = "RDS instance class."
  type        = string
  default     = "db.t4g.medium"
}

variable "db_engine_version" {
  description = "RDS PostgreSQL major version."
  type        = string
  default     = "16"
}

variable "db_allocated_storage" {
  description = "Initial RDS storage in GiB."
  type        = number
  default     = 20
}

variable "db_max_allocated_storage" {
  description = "Upper bound in GiB for RDS storage autoscaling."
  type        = number
  default     = 100
}

variable "db_multi_az" {
  description = "Run RDS with a synchronous standby in another AZ."
  type        = bool
  default     = true
}

variable "db_backup_retention_days" {
  description = "Days of automated RDS backups."
  type        = number
  default     = 14
}

variable "deletion_protection" {
  description = "Protect the RDS instance and the ALB from deletion."
  type        = bool
  default     = true
}

variable "log_retention_days" {
  description = "CloudWatch Logs retention for the gateway's logs."
  type        = number
  default     = 365
}

variable "alb_access_logs_bucket" {
  description = "Existing S3 bucket for ALB access logs (bucket policy must allow the regional ELB account); null disables access logs."
  type        = string
  default     = null
}

variable "tags" {
  description = "Tags added to every resource."
  type        = map(string)
  default     = {}
}
